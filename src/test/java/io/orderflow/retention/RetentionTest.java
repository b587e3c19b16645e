package io.orderflow.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.retention.RetentionJob.RetentionRun;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The retention job against this run's schema. Each test writes rows of its own, marked with a prefix,
 * just past and just within each table's age, and looks only at those: other tests' rows share the tables.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class RetentionTest {

    /** A table's test rows: inserted from (marker, time of the table's time column), counted by marker prefix. */
    private record Rows(String insert, String count) {
    }

    private static final String ROW = "FROM (VALUES (CAST(? AS text), CAST(? AS timestamptz))) AS test_row (marker, at)";
    private static final Map<PurgedTable, Rows> ROWS = Map.of(
            PurgedTable.PROCESSED_MESSAGES, new Rows(
                    "INSERT INTO processed_messages (event_id, consumer, processed_at) SELECT gen_random_uuid(), marker, at " + ROW,
                    "SELECT count(*) FROM processed_messages WHERE consumer LIKE ?"),
            PurgedTable.ORDER_NOTIFICATIONS, new Rows("""
                    INSERT INTO order_notifications (event_id, order_id, customer, message, created_at)
                    SELECT gen_random_uuid(), gen_random_uuid(), 'alice', marker, at\s""" + ROW,
                    "SELECT count(*) FROM order_notifications WHERE message LIKE ?"),
            PurgedTable.OUTBOX_DELIVERED, new Rows("""
                    INSERT INTO outbox_delivered (id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at)
                    SELECT -1 - floor(random() * 1e15)::bigint, 'retention-test', gen_random_uuid(), marker, '{}', 1, at, at\s""" + ROW,
                    "SELECT count(*) FROM outbox_delivered WHERE idempotency_key LIKE ?"),
            PurgedTable.ORDER_TOKENS, new Rows("""
                    INSERT INTO order_tokens (customer, token_hash, refused_at)
                    SELECT marker, encode(sha256(convert_to(marker, 'UTF8')), 'hex'), at\s""" + ROW,
                    "SELECT count(*) FROM order_tokens WHERE customer LIKE ?"),
            PurgedTable.IDEMPOTENCY_KEYS, new Rows("""
                    INSERT INTO idempotency_keys (scope_hash, principal, method, path, idempotency_key, fingerprint, claim_id, status,
                        headers, body, created_at, kept_until)
                    SELECT sha256(convert_to(marker, 'UTF8')), 'alice', 'POST', '/orders/token', marker, repeat('0', 64), gen_random_uuid(),
                        201, '{}', '{}', at - interval '1 day', at\s""" + ROW,
                    "SELECT count(*) FROM idempotency_keys WHERE idempotency_key LIKE ?"),
            PurgedTable.PROVIDER_EVENTS, new Rows(
                    "INSERT INTO provider_events (id, type, received_at) SELECT marker, 'charge.succeeded', at " + ROW,
                    "SELECT count(*) FROM provider_events WHERE id LIKE ?"),
            PurgedTable.RECONCILIATION_REPORTS, new Rows(
                    "INSERT INTO reconciliation_reports (started_at, finished_at, report) SELECT at - interval '1 minute', at, marker " + ROW,
                    "SELECT count(*) FROM reconciliation_reports WHERE report LIKE ?"),
            PurgedTable.SANDBOX_EFFECTS, new Rows("""
                    INSERT INTO sandbox_effects (kind, idempotency_key, order_id, reference, created_at)
                    SELECT 'retention-test', marker, gen_random_uuid(), marker, at\s""" + ROW,
                    "SELECT count(*) FROM sandbox_effects WHERE idempotency_key LIKE ?"),
            PurgedTable.SANDBOX_CALLS, new Rows("""
                    INSERT INTO sandbox_calls (kind, idempotency_key, order_id, status, at, answered_at)
                    SELECT 'retention-test', marker, gen_random_uuid(), 200, at, at\s""" + ROW,
                    "SELECT count(*) FROM sandbox_calls WHERE idempotency_key LIKE ?"));
    /** Sessions that wait for the given backend's locks while running the purge of the given table. */
    private static final String PURGE_WAITING = """
            SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid)) AND query LIKE 'DELETE FROM ' || ? || ' %'""";

    /** Far above the batch limit, far below a batch that waits for ever. */
    private static final Duration PROMPTLY = Duration.ofSeconds(30);

    @Inject
    RetentionJob retention;

    @Inject
    RetentionConfig config;

    @Inject
    MeterRegistry metrics;

    private final String marker = "rt-" + UUID.randomUUID().toString().substring(0, 8);
    private final ExecutorService runs = Executors.newCachedThreadPool();

    @AfterEach
    void cleanUp() throws SQLException {
        runs.shutdownNow();
        // Reports of this test must not stay the newest, which GET /payments/reconciliation reads as JSON.
        try (Connection db = TestServers.connect(); PreparedStatement delete = db.prepareStatement(
                "DELETE FROM reconciliation_reports WHERE report LIKE ?")) {
            delete.setString(1, marker + "%");
            delete.executeUpdate();
        }
    }

    @Test
    void everyTableLosesItsRowsPastTheirAgeAndKeepsTheYoungerOnes() throws Exception {
        Instant now = Instant.now();
        Map<PurgedTable, Double> purgedBefore = new EnumMap<>(PurgedTable.class);
        for (PurgedTable table : PurgedTable.values()) {
            Instant cutoff = table.maxAge(config.maxAge()).cutoff(now);
            insert(table, "old:1", cutoff.minus(Duration.ofHours(1)));
            insert(table, "old:2", cutoff.minus(Duration.ofDays(400)));
            insert(table, "young:1", cutoff.plus(Duration.ofHours(1)));
            purgedBefore.put(table, purgedCounter(table).count());
        }

        RetentionRun run = retention.run();

        assertThat(run.ran()).isTrue();
        assertThat(run.gaveUp()).isEmpty();
        for (PurgedTable table : PurgedTable.values()) {
            assertThat(count(table, "old:")).as("old rows of " + table.table()).isZero();
            assertThat(count(table, "young:")).as("younger rows of " + table.table()).isEqualTo(1);
            assertThat(run.purged(table.table())).as("purged from " + table.table()).isGreaterThanOrEqualTo(2);
            assertThat(purgedCounter(table).count() - purgedBefore.get(table)).as("counted for " + table.table())
                    .isEqualTo(run.purged(table.table()));
        }
        assertThat(metrics.find("orders.retention.batch").tag("table", "order_tokens").timer()).isNotNull()
                .satisfies(timer -> assertThat(timer.count()).isPositive());
    }

    @Test
    void theNewestReconciliationReportStaysHoweverOld() throws Exception {
        Instant longAgo = Instant.now().minus(Duration.ofDays(400));
        insert(PurgedTable.RECONCILIATION_REPORTS, "old:1", longAgo);
        insert(PurgedTable.RECONCILIATION_REPORTS, "newest:1", longAgo);

        assertThat(retention.run().ran()).isTrue();

        assertThat(count(PurgedTable.RECONCILIATION_REPORTS, "old:")).isZero();
        assertThat(count(PurgedTable.RECONCILIATION_REPORTS, "newest:")).isEqualTo(1);
    }

    /**
     * A run is held on the first table by a lock of this test's; a second run started meanwhile on another
     * thread finds the job's lock taken and skips, and the first one purges once the lock is gone.
     */
    @Test
    void twoRunsAtOnceOnePurgesAndTheOtherSkips() throws Exception {
        PurgedTable first = PurgedTable.values()[0];
        PurgedTable purged = PurgedTable.ORDER_NOTIFICATIONS;
        Instant old = purged.maxAge(config.maxAge()).cutoff(Instant.now()).minus(Duration.ofHours(1));
        for (int i = 1; i <= 3; i++) {
            insert(purged, "old:" + i, old);
        }
        insert(purged, "young:1", Instant.now());
        insert(purged, "young:2", Instant.now());

        Future<RetentionRun> holding;
        RetentionRun skipping;
        try (Connection lock = TestServers.connect()) {
            lock.setAutoCommit(false);
            try (Statement statement = lock.createStatement()) {
                statement.execute("LOCK TABLE " + first.table() + " IN ACCESS EXCLUSIVE MODE");
            }
            holding = runs.submit(retention::run);
            awaitPurgeWaitingFor(lock, first);
            skipping = runs.submit(retention::run).get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
            lock.commit();
        }
        RetentionRun ran = holding.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);

        assertThat(skipping.ran()).isFalse();
        assertThat(skipping.purged()).isEmpty();
        assertThat(ran.ran()).isTrue();
        assertThat(ran.purged(purged.table())).isGreaterThanOrEqualTo(3);
        assertThat(count(purged, "old:")).isZero();
        assertThat(count(purged, "young:")).isEqualTo(2);
    }

    /** Another instance's run holds the lock on its connection; when that connection closes (the instance died), the lock goes with it. */
    @Test
    void aRunSkipsWhileAnotherInstanceHoldsTheLockAndRunsOnceItsConnectionIsGone() throws Exception {
        PurgedTable table = PurgedTable.ORDER_NOTIFICATIONS;
        insert(table, "old:1", table.maxAge(config.maxAge()).cutoff(Instant.now()).minus(Duration.ofHours(1)));
        Connection otherInstance = TestServers.connect();
        try (Statement statement = otherInstance.createStatement(); ResultSet taken = statement.executeQuery(RetentionJob.TRY_LOCK)) {
            taken.next();
            assertThat(taken.getBoolean(1)).as("the other instance's lock").isTrue();
        }

        assertThat(retention.run().ran()).isFalse();
        assertThat(count(table, "old:")).isEqualTo(1);

        otherInstance.close();
        // The server lets go of the lock once the closed session's backend has ended, a moment after the close.
        await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(50)).until(() -> retention.run().ran());
        assertThat(count(table, "old:")).isZero();
    }

    @Test
    void aBatchThatMeetsATableLockGivesUpWithinTheLimitAndItsRowsGoAtTheNextRun() throws Exception {
        PurgedTable locked = PurgedTable.ORDER_NOTIFICATIONS;
        PurgedTable free = PurgedTable.ORDER_TOKENS;
        Instant now = Instant.now();
        insert(locked, "old:1", locked.maxAge(config.maxAge()).cutoff(now).minus(Duration.ofHours(1)));
        insert(locked, "old:2", locked.maxAge(config.maxAge()).cutoff(now).minus(Duration.ofHours(1)));
        insert(free, "old:1", free.maxAge(config.maxAge()).cutoff(now).minus(Duration.ofHours(1)));
        Counter timeouts = metrics.counter("orders.retention.timeouts", "table", locked.table());
        double timeoutsBefore = timeouts.count();

        RetentionRun blocked;
        Duration took;
        try (Connection lock = TestServers.connect()) {
            lock.setAutoCommit(false);
            try (Statement statement = lock.createStatement()) {
                statement.execute("LOCK TABLE " + locked.table() + " IN ACCESS EXCLUSIVE MODE");
            }
            long start = System.nanoTime();
            blocked = runs.submit(retention::run).get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
            took = Duration.ofNanos(System.nanoTime() - start);
            lock.rollback();
        }

        assertThat(blocked.ran()).isTrue();
        assertThat(blocked.gaveUp()).containsExactly(locked.table());
        // It waited for the lock for as long as it may, and no longer than the rest of the run takes on top.
        assertThat(took).isGreaterThanOrEqualTo(config.batchLockTimeout()).isLessThan(PROMPTLY);
        System.out.printf("[retention] a run whose batch met a table lock gave up on it and ended after %d ms (limit %d ms a batch)%n",
                took.toMillis(), config.batchLockTimeout().toMillis());
        assertThat(timeouts.count() - timeoutsBefore).isEqualTo(1);
        assertThat(count(locked, "old:")).as("rows the locked batch could not take").isEqualTo(2);
        assertThat(count(free, "old:")).as("the tables after it are purged all the same").isZero();

        RetentionRun next = retention.run();

        assertThat(next.gaveUp()).isEmpty();
        assertThat(count(locked, "old:")).isZero();
    }

    @Test
    void rowsAnotherTransactionHoldsArePassedOverWithoutWaitingAndGoOnceFree() throws Exception {
        PurgedTable table = PurgedTable.ORDER_NOTIFICATIONS;
        Instant old = table.maxAge(config.maxAge()).cutoff(Instant.now()).minus(Duration.ofHours(1));
        for (int i = 1; i <= 3; i++) {
            insert(table, "old:" + i, old);
        }

        RetentionRun run;
        try (Connection lock = TestServers.connect()) {
            lock.setAutoCommit(false);
            try (PreparedStatement hold = lock.prepareStatement("SELECT id FROM order_notifications WHERE message = ? FOR UPDATE")) {
                hold.setString(1, marker + ":old:1");
                try (ResultSet held = hold.executeQuery()) {
                    assertThat(held.next()).isTrue();
                }
            }
            run = retention.run();
            assertThat(count(table, "old:1")).as("the row held").isEqualTo(1);
            assertThat(count(table, "old:")).as("the rows held and free").isEqualTo(1);
            lock.commit();
        }

        // A batch that had waited for the row would have given up, past the limit.
        assertThat(run.gaveUp()).isEmpty();
        assertThat(retention.run().gaveUp()).isEmpty();
        assertThat(count(table, "old:")).isZero();
    }

    @Test
    void aSchemaWithoutTheSandboxTablesIsPurgedAllTheSame() throws Exception {
        PurgedTable table = PurgedTable.ORDER_TOKENS;
        insert(table, "old:1", table.maxAge(config.maxAge()).cutoff(Instant.now()).minus(Duration.ofHours(1)));
        RetentionRun run;
        try {
            // As in production, where V14 dropped them; renamed only for this run.
            execute("ALTER TABLE sandbox_effects RENAME TO sandbox_effects_away; ALTER TABLE sandbox_calls RENAME TO sandbox_calls_away");
            run = retention.run();
        } finally {
            execute("ALTER TABLE sandbox_effects_away RENAME TO sandbox_effects; ALTER TABLE sandbox_calls_away RENAME TO sandbox_calls");
        }

        assertThat(run.ran()).isTrue();
        assertThat(run.gaveUp()).isEmpty();
        assertThat(run.purged()).doesNotContainKeys("sandbox_effects", "sandbox_calls").containsKey(table.table());
        assertThat(count(table, "old:")).isZero();
    }

    private Counter purgedCounter(PurgedTable table) {
        return metrics.counter("orders.retention.purged", "table", table.table());
    }

    private void insert(PurgedTable table, String row, Instant at) throws SQLException {
        try (Connection db = TestServers.connect(); PreparedStatement insert = db.prepareStatement(ROWS.get(table).insert())) {
            insert.setString(1, marker + ":" + row);
            insert.setObject(2, OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
    }

    /** This test's rows of the table whose marker continues with {@code row}. */
    private int count(PurgedTable table, String row) throws SQLException {
        try (Connection db = TestServers.connect(); PreparedStatement count = db.prepareStatement(ROWS.get(table).count())) {
            count.setString(1, marker + ":" + row + "%");
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection db = TestServers.connect(); Statement statement = db.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Waits until a purge of {@code table} waits for a lock {@code lock} holds. */
    private static void awaitPurgeWaitingFor(Connection lock, PurgedTable table) throws SQLException {
        int holder;
        try (Statement statement = lock.createStatement(); ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
            pid.next();
            holder = pid.getInt(1);
        }
        await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(20)).until(() -> {
            try (Connection watcher = TestServers.connect(); PreparedStatement waiting = watcher.prepareStatement(PURGE_WAITING)) {
                waiting.setInt(1, holder);
                waiting.setString(2, table.table());
                try (ResultSet count = waiting.executeQuery()) {
                    count.next();
                    return count.getInt(1) > 0;
                }
            }
        });
    }
}
