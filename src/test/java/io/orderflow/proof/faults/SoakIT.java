package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.orderflow.proof.faults.SoakSeries.Kind;
import io.orderflow.proof.faults.SoakSeries.Verdict;

/**
 * The soak: one packaged instance, as deployed (ops/jvm.options), on a private PostgreSQL and Redis, under the mixed workload
 * of {@link SoakLoad} at half the rate it was measured to serve, for an hour ({@code -Dproof.mode=long}, ops/proof/run.sh soak)
 * or six minutes. Every 10 s it samples the instance's memory, heap after GC, threads and open files, PostgreSQL's
 * connections and each table's size, Redis's memory and keys, and each kind of request's p99. A level that grows at a pace
 * that would double it within a day over the last two thirds of the run, or a p99 that drifts by more than half, fails it,
 * as does any answer a journey did not expect. Retention is shortened (a sixth of the run) so that what is purged levels off
 * within the run; the tables that keep the orders' own record grow with the orders by design and are judged per order.
 */
@Tag("soak")
class SoakIT {

    /** The tables that keep every order's record for good: judged by their size per order. */
    private static final Set<String> RECORD_TABLES = Set.of("orders", "order_items", "order_history", "payments", "shipment_receipts",
            "order_tokens");
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);
    /** Unpaid orders expire this soon: a journey that pays does so within a few seconds of its order. */
    private static final Duration PAYMENT_DEADLINE = Duration.ofSeconds(30);
    /**
     * A table's size moves in pages of 8 kB as rows come and go: a rise of a few pages over the judged window is its grain,
     * not growth (a 9-page table one page larger at the end would otherwise "double within a day").
     */
    static final double PAGES_OF_GRAIN = 4 * 8 / 1024.0;
    /**
     * The pool opens a connection when all it has are busy at once and closes one idle for 5 minutes, so its count follows
     * the load's busiest moments, a connection at a time, up to its 32: a rise of a few over the window is that, not growth.
     */
    static final double CONNECTIONS_OF_GRAIN = 4;
    /** The closed loop that warms the instance up, then measures how many journeys a second it serves. */
    private static final int SHOPPERS = 16;
    private static final Duration WARM_UP = Duration.ofSeconds(45);
    private static final Duration CALIBRATION = Duration.ofSeconds(90);
    /** Each table of the schema and its size with indexes and TOAST, as "name bytes". */
    private static final String TABLE_SIZES = "SELECT c.relname || ' ' || pg_total_relation_size(c.oid) FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            + " AND c.relname <> 'flyway_schema_history' ORDER BY c.relname";
    private static final String CONNECTIONS = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'";
    private static final String ORDERS = "SELECT count(*) FROM orders";

    private final ProofSettings settings = ProofSettings.fromSystemProperties("soak");
    private final Duration length = Duration.ofMinutes(Long.getLong("soak.minutes", "long".equals(settings.mode()) ? 60 : 6));
    private final Map<String, SoakSeries> series = new LinkedHashMap<>();
    private final List<Double> sampledAt = new ArrayList<>();

    @Test
    void anHourAtHalfCapacityLeavesMemoryConnectionsKeysTablesAndLatencyFlat() throws Exception {
        Files.deleteIfExists(settings.results());
        Duration retention = retention();
        try (Deployment deployment = Deployment.withoutInstances(settings, SingleServers.start())) {
            ServiceInstance instance = deployment.putInServiceAsDeployed("soak", settings.jar(), retentionOf(retention));
            SingleServers servers = (SingleServers) deployment.servers;
            try (SoakLoad load = new SoakLoad(instance.base(), "soak")) {
                load.closedLoop(SHOPPERS, WARM_UP);
                double capacity = load.closedLoop(SHOPPERS, CALIBRATION);
                double rate = capacity / 2;
                long journeysBefore = load.journeys();
                load.takeWindows();
                long started = System.nanoTime();
                load.startAtRate(rate);
                ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
                var sampling = sampler.scheduleAtFixedRate(() -> sample(deployment, servers, instance, load, started), SAMPLE_EVERY.toNanos(),
                        SAMPLE_EVERY.toNanos(), TimeUnit.NANOSECONDS);
                try {
                    // Returns only if a sample failed, with its failure.
                    sampling.get(length.toSeconds(), TimeUnit.SECONDS);
                } catch (TimeoutException endOfRun) {
                    // The run's length is up: the samples are all taken.
                } finally {
                    sampler.shutdown();
                    sampler.awaitTermination(1, TimeUnit.MINUTES);
                }
                load.close();
                long journeys = load.journeys() - journeysBefore;
                report(capacity, rate, journeys, load, retention);

                assertThat(load.firstSurprises()).as("answers a journey did not expect (%d in all)", load.surprises()).isEmpty();
                assertThat((double) journeys).as("journeys completed at %.1f a second for %d min", rate, length.toMinutes())
                        .isGreaterThanOrEqualTo(0.95 * rate * length.toSeconds());
                assertThat(sampledAt.size()).as("samples taken").isGreaterThanOrEqualTo((int) (length.toSeconds() / SAMPLE_EVERY.toSeconds()) - 2);
                assertThat(verdicts().stream().filter(verdict -> !verdict.flat()).map(Verdict::name)).as("series that did not stay flat").isEmpty();
            }
        }
    }

    /**
     * Purged rows and expiring keys kept for this long, purged every tenth of it; the order events trimmed early. Orders left
     * unpaid expire after {@link #PAYMENT_DEADLINE}: their expiry adds a transition, an event and a notification to each, so
     * the workload is the same from the first minute, rather than changing 30 minutes in (the default); and the share of
     * orders old enough to have expired, which lifts the history kept per order, is all but whole by the judged window
     * (with 5 minutes it still rose by 3 % within it).
     */
    private static Map<String, String> retentionOf(Duration retention) {
        String age = retention.toSeconds() + "S";
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("ORDERS_PAYMENT_DEADLINE", PAYMENT_DEADLINE.toSeconds() + "S");
        settings.put("ORDERS_IDEMPOTENCY_RETENTION", age);
        settings.put("ORDERS_TOKENS_TTL", age);
        settings.put("ORDERS_RETENTION_INTERVAL", retention.dividedBy(10).toSeconds() + "S");
        Stream.of("PROCESSED_MESSAGES", "OUTBOX_DELIVERED", "ORDER_NOTIFICATIONS", "TOKEN_REFUSALS", "PROVIDER_EVENTS", "SANDBOX_EFFECTS",
                "SANDBOX_CALLS", "RECONCILIATION_REPORTS").forEach(table -> settings.put("ORDERS_RETENTION_MAX_AGE_" + table, age));
        settings.put("ORDERS_EVENTS_MAX_LENGTH", "10000");
        return settings;
    }

    private void sample(Deployment deployment, SingleServers servers, ServiceInstance instance, SoakLoad load, long started) {
        double at = Math.round((System.nanoTime() - started) / 1e9);
        sampledAt.add(at);
        Map<String, String> status = processStatus(instance.pid());
        level("rss_mb").add(at, kilobytes(status.get("VmRSS")) / 1024);
        level("threads").add(at, Double.parseDouble(status.get("Threads")));
        level("open_files").add(at, openFiles(instance.pid()));
        level("heap_after_gc_mb").add(at, instance.metric("jvm_gc_live_data_size_bytes") / (1 << 20));
        level("pg_connections", CONNECTIONS_OF_GRAIN).add(at, deployment.number(CONNECTIONS));
        level("redis_memory_mb").add(at, redisInfo(servers, "used_memory") / (1 << 20));
        level("redis_keys").add(at, ((Number) servers.redis().command("DBSIZE")).doubleValue());
        long orders = deployment.number(ORDERS);
        level("orders").add(at, orders);
        for (String row : deployment.texts(TABLE_SIZES)) {
            String[] parts = row.split(" ");
            double megabytes = Double.parseDouble(parts[1]) / (1 << 20);
            if (RECORD_TABLES.contains(parts[0])) {
                level("table_" + parts[0] + "_kb_per_order").add(at, orders == 0 ? Double.NaN : megabytes * 1024 / orders);
            } else {
                level("table_" + parts[0] + "_mb", PAGES_OF_GRAIN).add(at, megabytes);
            }
        }
        load.takeWindows().forEach((call, window) -> series.computeIfAbsent("p99_" + call.name().toLowerCase(Locale.ROOT) + "_ms",
                name -> new SoakSeries(name, Kind.LATENCY)).add(at, window.p99Millis()));
    }

    private SoakSeries level(String name) {
        return level(name, 0);
    }

    /** A level that moves by its grain without growing: a rise over the judged window no larger than that is not growth. */
    private SoakSeries level(String name, double grain) {
        return series.computeIfAbsent(name, key -> new SoakSeries(key, Kind.LEVEL, grain));
    }

    /**
     * Levels judged over the last two thirds of the run by their peaks over each retention period (the cycle in which
     * purged rows and expiring keys come and go); latencies by the sixth after the warm-up against the last sixth.
     */
    private List<Verdict> verdicts() {
        double seconds = length.toSeconds();
        double warmUp = seconds / 12;
        SoakSeries.Windows windows = new SoakSeries.Windows(seconds / 3, retention().toSeconds(), warmUp, warmUp + seconds / 6,
                seconds - seconds / 6);
        return series.values().stream().filter(one -> !one.name.equals("orders")).map(one -> one.judge(windows)).toList();
    }

    private Duration retention() {
        return length.dividedBy(6);
    }

    private void report(double capacity, double rate, long journeys, SoakLoad load, Duration retention) throws IOException {
        Path results = settings.results();
        Files.createDirectories(results.getParent());
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "capacity %.1f journeys/s (%d shoppers, closed loop, after %d s warm-up); soak at %.1f/s for %d min: %d journeys,"
                + " %d surprises; retention %d s", capacity, SHOPPERS, WARM_UP.toSeconds(), rate, length.toMinutes(), journeys, load.surprises(), retention.toSeconds()));
        load.firstSurprises().forEach(surprise -> lines.add("surprise: " + surprise));
        lines.add(String.format(Locale.ROOT, "%-40s %12s %12s %14s %14s %8s  %s", "series", "first", "last", "slope per hour", "days to double",
                "drift", "verdict"));
        for (Verdict verdict : verdicts()) {
            lines.add(String.format(Locale.ROOT, "%-40s %12.2f %12.2f %14.3f %14s %8s  %s", verdict.name(), verdict.first(), verdict.last(),
                    verdict.slopePerHour(), days(verdict.daysToDouble()),
                    Double.isNaN(verdict.drift()) ? "" : String.format(Locale.ROOT, "%+.0f%%", verdict.drift() * 100), verdict.flat() ? "flat" : "GROWS"));
        }
        Files.write(results, lines);
        List<String> columns = new ArrayList<>(series.keySet());
        List<String> table = new ArrayList<>();
        table.add("seconds\t" + String.join("\t", columns));
        for (double at : sampledAt) {
            table.add(Math.round(at) + "\t" + columns.stream().map(name -> format(series.get(name).at(at))).collect(Collectors.joining("\t")));
        }
        Files.write(results.resolveSibling("samples.tsv"), table);
    }

    private static String days(double days) {
        return Double.isNaN(days) ? "" : Double.isInfinite(days) ? "never" : String.format(Locale.ROOT, "%.1f", days);
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static Map<String, String> processStatus(long pid) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(pid), "status"))) {
            return lines.filter(line -> line.contains(":")).collect(Collectors.toMap(line -> line.substring(0, line.indexOf(':')),
                    line -> line.substring(line.indexOf(':') + 1).trim(), (a, b) -> a));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double kilobytes(String value) {
        return Double.parseDouble(value.replace("kB", "").trim());
    }

    private static double openFiles(long pid) {
        try (Stream<Path> files = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return files.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double redisInfo(SingleServers servers, String field) {
        String info = servers.redis().command("INFO", "memory").toString();
        return info.lines().filter(line -> line.startsWith(field + ":")).mapToDouble(line -> Double.parseDouble(line.substring(field.length() + 1).trim()))
                .findFirst().orElseThrow(() -> new IllegalStateException("No " + field + " in Redis's INFO"));
    }
}
