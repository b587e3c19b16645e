package io.orderflow.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** The sandbox providers' tables are there where the sandbox runs, and nowhere else, after the same migrations. */
@QuarkusTest
@WithTestResource(TestServers.class)
class SandboxTablesTest {

    private static final String SANDBOX_TABLES = """
            SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name IN ('sandbox_effects', 'sandbox_calls')""";

    private final DataSource database;

    SandboxTablesTest(DataSource database) {
        this.database = database;
    }

    @Test
    void aProductionDatabaseHasNoSandboxTables() throws SQLException {
        assertThat(sandboxTablesAfterMigrating("false")).isZero();
    }

    @Test
    void aDevTestOrDemoDatabaseHasThem() throws SQLException {
        assertThat(sandboxTablesAfterMigrating("true")).isEqualTo(2);
    }

    /** Migrates a fresh schema as a deployment with this placeholder would, and counts its sandbox tables. */
    private long sandboxTablesAfterMigrating(String sandbox) throws SQLException {
        String schema = "t_sandbox_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try {
            Flyway.configure().dataSource(database).schemas(schema).locations("db/migration")
                    .placeholders(Map.of("sandbox", sandbox)).load().migrate();
            try (Connection connection = database.getConnection(); PreparedStatement query = connection.prepareStatement(SANDBOX_TABLES)) {
                query.setString(1, schema);
                try (ResultSet count = query.executeQuery()) {
                    count.next();
                    return count.getLong(1);
                }
            }
        } finally {
            try (Connection connection = database.getConnection(); Statement drop = connection.createStatement()) {
                drop.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }
}
