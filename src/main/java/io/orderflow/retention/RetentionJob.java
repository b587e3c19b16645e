package io.orderflow.retention;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.orderflow.shared.StopsWithTheApp;
import io.orderflow.shared.WorkInProgress;
import io.orderflow.shared.metrics.Counters;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;

/**
 * Purges the tables that only grow ({@link PurgedTable}) of their rows past their age, in batches of
 * {@code orders.retention.batch-size}, each a short transaction of its own that gives up past
 * {@code orders.retention.batch-lock-timeout}. Any instance may run it, one at a time: a run holds an
 * advisory lock on its connection throughout, and an instance that finds it taken skips its round.
 */
@Startup
@ApplicationScoped
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class);

    // Session-level, on the run's one connection: PostgreSQL lets go of it when the connection closes, so an
    // instance that dies mid-run holds nobody up. Keyed by schema, as deployments may share one database;
    // 7301 is this job's class of advisory locks.
    static final String TRY_LOCK = "SELECT coalesce(pg_try_advisory_lock(7301, hashtext(coalesce(current_schema(), ''))), false)";
    private static final String UNLOCK = "SELECT pg_advisory_unlock(7301, hashtext(coalesce(current_schema(), '')))";
    // For the batch's transaction only; the value is bound, e.g. '2000ms'.
    private static final String BATCH_LIMITS = "SELECT set_config('lock_timeout', ?, true), set_config('statement_timeout', ?, true)";
    private static final String EXISTS = "SELECT to_regclass(?) IS NOT NULL";
    /** lock_not_available (lock_timeout) and query_canceled (statement_timeout). */
    private static final Set<String> GAVE_UP = Set.of("55P03", "57014");

    /**
     * What one run did: whether it ran (not when another held the lock, or the database failed), rows purged
     * by table, tables whose batch gave up.
     */
    public record RetentionRun(boolean ran, Map<String, Integer> purged, Set<String> gaveUp) {

        static final RetentionRun SKIPPED = new RetentionRun(false, Map.of(), Set.of());

        public int purged(String table) {
            return purged.getOrDefault(table, 0);
        }
    }

    /** The run's advisory lock, let go of on close; a failure to let go is added to whatever ended the run. */
    private interface HeldLock extends AutoCloseable {
        @Override
        void close() throws SQLException;
    }

    private final DataSource dataSource;
    private final RetentionConfig config;
    private final WorkInProgress work;
    private final Counters<RunOutcome> runs;
    private final Counters<PurgedTable> purgedRows;
    private final Counters<PurgedTable> timeouts;
    private final Map<PurgedTable, Timer> batches = new EnumMap<>(PurgedTable.class);

    /** How a run ended: {@code orders_retention_runs_total{outcome}}. */
    private enum RunOutcome {
        RAN,
        /** Another instance held the lock. */
        SKIPPED,
        /** The database failed. */
        FAILED
    }

    public RetentionJob(DataSource dataSource, RetentionConfig config, MeterRegistry metrics, WorkInProgress work) {
        this.dataSource = dataSource;
        this.config = config;
        this.runs = Counters.of(metrics, "orders.retention.runs", "Runs of the purge, by how they ended", Tags.empty(), "outcome", RunOutcome.class);
        Set<PurgedTable> tables = EnumSet.allOf(PurgedTable.class);
        this.purgedRows = Counters.of(metrics, "orders.retention.purged", "Rows purged past their age", Tags.empty(), "table", tables, PurgedTable::table);
        this.timeouts = Counters.of(metrics, "orders.retention.timeouts", "Batches of the purge that gave up at orders.retention.batch-lock-timeout",
                Tags.empty(), "table", tables, PurgedTable::table);
        for (PurgedTable table : tables) {
            batches.put(table, Timer.builder("orders.retention.batch").description("Each batch of the purge, those that gave up included")
                    .tag("table", table.table()).register(metrics));
        }
        this.work = work;
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.retention.interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1m")
    void purgeOnSchedule() {
        run();
    }

    /** One run over every table, unless another holds the lock; a database that fails ends the run with a warning. */
    public RetentionRun run() {
        try (Connection connection = dataSource.getConnection()) {
            if (!lock(connection)) {
                runs.increment(RunOutcome.SKIPPED);
                return RetentionRun.SKIPPED;
            }
            // Let go of it however the run ends: a pooled connection that kept the lock would hold every run off.
            try (HeldLock held = () -> unlock(connection)) {
                RetentionRun run = purgeAll(connection);
                runs.increment(RunOutcome.RAN);
                return run;
            }
        } catch (SQLException e) {
            runs.increment(RunOutcome.FAILED);
            LOG.warnf("The purge of old rows stopped: %s (SQLState %s); the next run goes on", e.getMessage(), e.getSQLState());
            return RetentionRun.SKIPPED;
        }
    }

    private RetentionRun purgeAll(Connection connection) throws SQLException {
        Instant now = Instant.now();
        Map<String, Integer> purged = new LinkedHashMap<>();
        Set<String> gaveUp = new LinkedHashSet<>();
        for (PurgedTable table : PurgedTable.values()) {
            MaxAge age = table.maxAge(config.maxAge());
            // A stopping instance ends its run after the batch in progress.
            if (work.stopping() || age.off() || (table.mayBeAbsent() && !exists(connection, table))) {
                continue;
            }
            int rows = purge(connection, table, age.cutoff(now), gaveUp);
            purged.put(table.table(), rows);
        }
        if (purged.values().stream().anyMatch(rows -> rows > 0)) {
            LOG.infof("Purged the rows past their retention: %s", purged.entrySet().stream().filter(entry -> entry.getValue() > 0)
                    .map(entry -> entry.getKey() + " " + entry.getValue()).collect(Collectors.joining(", ")));
        }
        return new RetentionRun(true, purged, gaveUp);
    }

    /** Batches until one is short; a batch that gives up leaves the rest of the table to the next run. */
    private int purge(Connection connection, PurgedTable table, Instant cutoff, Set<String> gaveUp) throws SQLException {
        int purged = 0;
        int rows;
        do {
            long start = System.nanoTime();
            try {
                rows = batch(connection, table, cutoff);
            } catch (SQLException e) {
                if (!GAVE_UP.contains(e.getSQLState())) {
                    throw e;
                }
                gaveUp.add(table.table());
                timeouts.increment(table);
                LOG.warnf("A batch of the purge of %s gave up after %s (%s); the table is purged again at the next run", table.table(),
                        config.batchLockTimeout(), e.getMessage());
                return purged;
            } finally {
                batches.get(table).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
            purged += rows;
            purgedRows.increment(table, rows);
        } while (rows == config.batchSize() && !work.stopping());
        return purged;
    }

    private int batch(Connection connection, PurgedTable table, Instant cutoff) throws SQLException {
        connection.setAutoCommit(false);
        try {
            String limit = limit(config.batchLockTimeout());
            try (PreparedStatement limits = connection.prepareStatement(BATCH_LIMITS)) {
                limits.setString(1, limit);
                limits.setString(2, limit);
                limits.execute();
            }
            int rows;
            try (PreparedStatement purge = connection.prepareStatement(table.purgeBatch())) {
                purge.setObject(1, OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC));
                purge.setInt(2, config.batchSize());
                rows = purge.executeUpdate();
            }
            connection.commit();
            return rows;
        } catch (SQLException e) {
            rollback(connection, e);
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** A time limit as PostgreSQL's settings take it; at least 1 ms, as 0 would mean none. */
    static String limit(Duration timeout) {
        return Math.max(1, timeout.toMillis()) + "ms";
    }

    private static void rollback(Connection connection, SQLException cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private static boolean lock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(TRY_LOCK); ResultSet taken = lock.executeQuery()) {
            return taken.next() && taken.getBoolean(1);
        }
    }

    private static void unlock(Connection connection) throws SQLException {
        try (PreparedStatement unlock = connection.prepareStatement(UNLOCK)) {
            unlock.execute();
        }
    }

    private static boolean exists(Connection connection, PurgedTable table) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement(EXISTS)) {
            exists.setString(1, table.table());
            try (ResultSet found = exists.executeQuery()) {
                return found.next() && found.getBoolean(1);
            }
        }
    }
}
