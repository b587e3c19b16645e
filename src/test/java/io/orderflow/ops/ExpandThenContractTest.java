package io.orderflow.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.orderflow.ops.ContractingStatements.Finding;
import io.orderflow.proof.faults.PreviousRelease;
import io.orderflow.support.FastTest;

/**
 * Migrations expand, then contract a release later: the previous release (ops/upgrade/previous-release) keeps serving on
 * the schema this release's migrations leave, so none of the migrations it does not have may remove, rename, retype or
 * narrow what it reads and writes, and none it has may change (Flyway would refuse the schema). UpgradeIT proves the
 * same by running the previous release on the new schema; this finds it before anything runs.
 */
@FastTest
class ExpandThenContractTest {

    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");
    /**
     * Contracting statements read and found harmless to the previous release, by migration and statement, with the reason.
     * A new entry needs the same reading: what the previous release writes to and reads from what the statement changes.
     */
    private static final Map<String, String> REVIEWED = Map.of(
            "V28__stock_adjustments_keep_their_command_ids.sql: CREATE UNIQUE INDEX UQ_STOCK_ADJUSTMENTS_COMMAND_ID ON STOCK_ADJUSTMENTS"
                    + " (SKU, COMMAND_ID) WHERE COMMAND_ID IS NOT NULL",
            "the column is new in the same migration: the previous release never writes it, so its rows stay outside the index",
            "V29__admins.sql: ALTER TABLE USERS DROP CONSTRAINT CK_USERS_ROLE",
            "replaced by the next statement with a wider one: a role more, every role the previous release writes still allowed",
            "V29__admins.sql: ALTER TABLE USERS ADD CONSTRAINT CK_USERS_ROLE CHECK (ROLE IN ('', '', '', ''))",
            "the roles customer, staff and metrics of the previous release, and admin");

    @Test
    void noMigrationThePreviousReleaseLacksContractsWhatItReadsOrWrites() throws IOException, InterruptedException {
        List<String> theirs = previousReleaseMigrations();
        assertThat(theirs).as("the previous release's migrations").isNotEmpty();
        List<String> unreviewed = new ArrayList<>();
        for (Path migration : migrations()) {
            String name = migration.getFileName().toString();
            if (theirs.contains(name)) {
                continue;
            }
            for (Finding finding : ContractingStatements.in(Files.readString(migration))) {
                String key = name + ": " + finding.statement();
                if (!REVIEWED.containsKey(key)) {
                    unreviewed.add(key + " (" + finding.why() + ")");
                }
            }
        }
        assertThat(unreviewed).as("statements the previous release may not run against; contract a release later").isEmpty();
    }

    @Test
    void noMigrationOfThePreviousReleaseIsChanged() throws IOException, InterruptedException {
        for (String name : previousReleaseMigrations()) {
            Path ours = MIGRATIONS.resolve(name);
            assertThat(ours).as("a migration the previous release applied").exists();
            assertThat(Files.readString(ours)).as("%s as the previous release applied it", name).isEqualTo(git("show", PreviousRelease.commit() + ":" + MIGRATIONS + "/" + name));
        }
    }

    @Test
    void everyReviewedStatementIsStillInItsMigration() throws IOException {
        for (String key : REVIEWED.keySet()) {
            String name = key.substring(0, key.indexOf(':'));
            String statement = key.substring(key.indexOf(':') + 2);
            assertThat(ContractingStatements.in(Files.readString(MIGRATIONS.resolve(name)))).as(key).extracting(Finding::statement)
                    .contains(statement);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "ALTER TABLE orders DROP COLUMN customer;",
            "alter table orders drop customer",
            "ALTER TABLE orders DROP /* keep it short */ COLUMN IF EXISTS customer",
            "ALTER TABLE \"orders\"\n   DROP\n\t\"customer\";",
            "DROP TABLE order_notifications",
            "DROP INDEX uq_orders_token",
            "ALTER TABLE orders ALTER COLUMN total DROP DEFAULT",
            "ALTER TABLE orders RENAME COLUMN customer TO buyer",
            "ALTER TABLE orders RENAME TO purchases",
            "ALTER TABLE orders ALTER COLUMN total TYPE BIGINT",
            "ALTER TABLE orders ALTER total SET DATA TYPE BIGINT",
            "ALTER TABLE orders ALTER COLUMN customer SET NOT NULL",
            "ALTER TABLE orders ADD COLUMN channel TEXT NOT NULL",
            "ALTER TABLE orders ADD channel TEXT NOT NULL, ADD note TEXT DEFAULT 'x'",
            "ALTER TABLE orders ADD CONSTRAINT ck_total CHECK (total > 0)",
            "ALTER TABLE orders ADD UNIQUE (customer, token)",
            "ALTER TABLE orders ADD CONSTRAINT fk_customer FOREIGN KEY (customer) REFERENCES users (name)",
            "CREATE UNIQUE INDEX uq_orders_customer ON orders (customer)",
            "DO $$ BEGIN ALTER TABLE orders DROP COLUMN customer; END $$;",
            "DO $body$ BEGIN EXECUTE 'x'; ALTER TABLE orders RENAME COLUMN a TO b; END $body$" })
    void aStatementThePreviousReleaseMayNotRunAgainstIsFoundHoweverItIsWritten(String sql) {
        assertThat(ContractingStatements.in(sql)).as(sql).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "CREATE TABLE shipments (id BIGINT NOT NULL PRIMARY KEY, reference TEXT NOT NULL, CONSTRAINT ck_ref CHECK (reference <> ''))",
            "ALTER TABLE orders ADD COLUMN channel TEXT",
            "ALTER TABLE orders ADD COLUMN channel TEXT NOT NULL DEFAULT 'web'",
            "ALTER TABLE orders ADD COLUMN IF NOT EXISTS total_cents BIGINT GENERATED ALWAYS AS (total * 100) STORED",
            "ALTER TABLE orders ALTER COLUMN customer DROP NOT NULL",
            "CREATE INDEX ix_orders_customer ON orders (customer)",
            "-- DROP TABLE orders, as a comment says\nCREATE INDEX ix_a ON orders (a)",
            "INSERT INTO products (sku, name) VALUES ('DROP-1', 'Drop table; rename')",
            "COMMENT ON COLUMN orders.customer IS 'may be renamed later'" })
    void anExpandingStatementIsNotFound(String sql) {
        assertThat(ContractingStatements.in(sql)).as(sql).isEmpty();
    }

    private static List<Path> migrations() throws IOException {
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".sql")).sorted().toList();
        }
    }

    private static List<String> previousReleaseMigrations() throws IOException, InterruptedException {
        return git("ls-tree", "--name-only", PreviousRelease.commit() + ":" + MIGRATIONS).lines().filter(name -> name.endsWith(".sql")).toList();
    }

    private static String git(String... arguments) throws IOException, InterruptedException {
        Process git = new ProcessBuilder(Stream.concat(Stream.of("git"), Stream.of(arguments)).toList()).redirectErrorStream(false).start();
        String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(git.waitFor()).as("git %s", String.join(" ", arguments)).isZero();
        return output;
    }
}
