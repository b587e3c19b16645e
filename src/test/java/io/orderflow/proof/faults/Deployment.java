package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Three packaged instances of the service (or those of a rolling upgrade, two releases' jars) on one schema and one key prefix, in front of private
 * data servers (a PostgreSQL and a Redis, or a failover formation and a Redis Cluster). Instance 0 alone runs the outbox relay, so that killing it leaves
 * order events, refunds and shipments waiting for it to come back. Leases are shortened from their
 * defaults so that work a dead or stalled holder leaves behind is taken over within seconds.
 */
final class Deployment implements AutoCloseable {

    static final String SCHEMA = "proof";
    static final String KEY_PREFIX = "proof:";
    static final int INSTANCES = 3;
    static final int RELAY = 0;
    /** After SIGTERM, readiness answers DOWN within this, while the instance still serves. */
    static final Duration SIGNAL_LIMIT = Duration.ofSeconds(2);
    /** quarkus.shutdown.delay and timeout (5 s and 20 s), and the background work's own stop, with room to spare. */
    static final Duration STOP_LIMIT = Duration.ofSeconds(40);
    private static final Duration START_LIMIT = Duration.ofSeconds(180);
    private static final Path JVM_OPTIONS = Path.of("ops/jvm.options");
    private static final String SANDBOX_KEY = "sk_proof_" + UUID.randomUUID();

    final DataServers servers;
    /** The instances in service; a rolling upgrade adds and removes some while clients read it. */
    final List<ServiceInstance> instances = new CopyOnWriteArrayList<>();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    private final Path workDir;

    private Deployment(DataServers servers, Path workDir) {
        this.servers = servers;
        this.workDir = workDir;
    }

    /** Starts the instances on the servers, which the deployment then owns: it closes them with itself. */
    static Deployment start(ProofSettings settings, DataServers servers) {
        Deployment deployment = withoutInstances(settings, servers);
        try {
            for (int i = 0; i < INSTANCES; i++) {
                deployment.instances.add(deployment.instance("instance-" + i, settings.jar(), i == RELAY));
            }
            // The first one migrates the schema alone; the others start together once it is done.
            deployment.instances.get(0).start();
            deployment.instances.get(0).awaitReady(START_LIMIT);
            deployment.instances.subList(1, INSTANCES).forEach(ServiceInstance::start);
            deployment.instances.subList(1, INSTANCES).forEach(instance -> instance.awaitReady(START_LIMIT));
            return deployment;
        } catch (RuntimeException e) {
            deployment.close();
            throw e;
        }
    }

    /** A deployment on the servers, which it then owns, with no instance yet: {@link #putInService} starts them. */
    static Deployment withoutInstances(ProofSettings settings, DataServers servers) {
        try {
            Files.createDirectories(settings.workDir());
            return new Deployment(servers, settings.workDir());
        } catch (IOException e) {
            servers.close();
            throw new UncheckedIOException(e);
        }
    }

    private ServiceInstance instance(String name, Path jar, boolean relay) {
        return instance(name, jar, relay, ServiceInstance.PROOF_JVM);
    }

    private ServiceInstance instance(String name, Path jar, boolean relay, List<String> jvmOptions) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No packaged service at " + jar + ": run ./mvnw package first");
        }
        return new ServiceInstance(name, jar, workDir.resolve(name + ".log"), environment(relay), jvmOptions, http);
    }

    /**
     * Starts an instance of a release's jar running the outbox relay, as every instance does where deployed, and puts
     * it in service (clients reach it from then on) once it is ready, as a rollout adds a pod to the endpoints.
     */
    ServiceInstance putInService(String name, Path jar) {
        return putBackInService(instance(name, jar, true));
    }

    /**
     * Starts an instance as it is deployed (the JVM options of ops/jvm.options, the outbox relay on) with these settings over the
     * deployment's own, and puts it in service once it is ready.
     */
    ServiceInstance putInServiceAsDeployed(String name, Path jar, Map<String, String> settings) {
        ServiceInstance instance = instance(name, jar, true, deployedJvmOptions());
        instance.configure(settings);
        return putBackInService(instance);
    }

    private static List<String> deployedJvmOptions() {
        try (Stream<String> lines = Files.lines(JVM_OPTIONS)) {
            return lines.map(String::trim).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts an instance taken out of service again, and puts it back in service once it is ready. */
    ServiceInstance putBackInService(ServiceInstance instance) {
        instance.start();
        try {
            instance.awaitReady(START_LIMIT);
        } catch (RuntimeException e) {
            instance.stop();
            throw e;
        }
        instances.add(instance);
        return instance;
    }

    /**
     * Takes an instance out of service as a rollout does: SIGTERM, out of the endpoints once its readiness answers
     * DOWN (it still serves what it was sent), then its exit. Returns how long it took to exit.
     */
    Duration takeOutOfService(ServiceInstance instance) {
        long signalled = System.nanoTime();
        instance.signalStop();
        Processes.require(SIGNAL_LIMIT, instance.name() + ": readiness DOWN after SIGTERM", () -> !instance.ready());
        instances.remove(instance);
        if (!instance.exitedWithin(STOP_LIMIT)) {
            instance.kill();
            throw new IllegalStateException(instance.name() + " did not exit within " + STOP_LIMIT.toSeconds() + " s of SIGTERM");
        }
        return Duration.ofNanos(System.nanoTime() - signalled);
    }

    private Map<String, String> environment(boolean relay) {
        Map<String, String> environment = new HashMap<>();
        environment.put("QUARKUS_PROFILE", "demo");
        // Its instances share the keys the demo generates, kept out of the project's own demo-keys.
        environment.put("ORDERS_DEMO_KEY_DIR", "target/faults-demo-keys");
        // Every instance calls the sandboxes (its own, or another's behind a proxy) with the same secret key.
        environment.put("ORDERS_SANDBOX_API_KEY", SANDBOX_KEY);
        // The proof's staff requests sign in as ops/ops, on a deployment no one else reaches.
        environment.put("ORDERS_DEMO_STAFF_PASSWORD", "ops");
        environment.putAll(servers.environment(SCHEMA));
        environment.put("QUARKUS_FLYWAY_SCHEMAS", SCHEMA);
        environment.put("ORDERS_REDIS_KEY_PREFIX", KEY_PREFIX);
        environment.put("ORDERS_TOKENS_MAX_OUTSTANDING", "1000000");
        environment.put("ORDERS_TOKENS_TTL", "1H");
        environment.put("ORDERS_TOKENS_LEASE", "5S");
        environment.put("ORDERS_IDEMPOTENCY_LEASE", "10S");
        environment.put("ORDERS_PAYMENTS_LEASE", "15S");
        environment.put("ORDERS_OUTBOX_LEASE", "15S");
        // A provider that takes a moment, as real ones do, so that pay and cancel overlap.
        environment.put("ORDERS_SANDBOX_LATENCY", "50MS");
        // Small batches, so that a burst of due deadlines is shared out between the instances.
        environment.put("ORDERS_DEADLINES_BATCH_SIZE", "50");
        if (!relay) {
            environment.put("ORDERS_OUTBOX_POLL_INTERVAL", "off");
        }
        return environment;
    }

    List<URI> bases() {
        return instances.stream().map(ServiceInstance::base).toList();
    }

    boolean allReady() {
        return instances.stream().allMatch(ServiceInstance::ready);
    }

    Connection connect() throws SQLException {
        return servers.connect(SCHEMA);
    }

    /** What a query answers in its first column of its first row, as a number. */
    long number(String sql, Object... parameters) {
        try (Connection db = connect(); PreparedStatement statement = bind(db, sql, parameters); ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** What a query answers in its first column, every row, as text. */
    List<String> texts(String sql, Object... parameters) {
        try (Connection db = connect(); PreparedStatement statement = bind(db, sql, parameters); ResultSet rows = statement.executeQuery()) {
            List<String> texts = new ArrayList<>();
            while (rows.next()) {
                texts.add(rows.getString(1));
            }
            return texts;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The statement with its parameters set, a list as a text array. */
    static PreparedStatement bind(Connection db, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = db.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            Object value = parameters[i] instanceof List<?> values ? db.createArrayOf("text", values.toArray()) : parameters[i];
            statement.setObject(i + 1, value);
        }
        return statement;
    }

    /** Kills an instance with SIGKILL. */
    void kill(int index) {
        instances.get(index).kill();
    }

    /** Starts a killed instance again and waits until it is ready. */
    void restart(int index) {
        ServiceInstance instance = instances.get(index);
        instance.start();
        instance.awaitReady(START_LIMIT);
    }

    /** Starts every instance that is not running (killed) at once, and waits until each is ready. */
    void restartKilled() {
        List<ServiceInstance> killed = instances.stream().filter(instance -> !instance.running()).toList();
        killed.forEach(ServiceInstance::start);
        killed.forEach(instance -> instance.awaitReady(START_LIMIT));
    }

    /**
     * Stops every instance and starts them all again with these settings over the deployment's own (none: as
     * deployed), and waits until each is ready.
     */
    void restartAllWith(Map<String, String> settings) {
        instances.forEach(ServiceInstance::stop);
        instances.forEach(instance -> instance.configure(settings));
        instances.forEach(ServiceInstance::start);
        instances.forEach(instance -> instance.awaitReady(START_LIMIT));
    }

    @Override
    public void close() {
        try {
            instances.forEach(ServiceInstance::stop);
        } finally {
            servers.close();
        }
    }
}
