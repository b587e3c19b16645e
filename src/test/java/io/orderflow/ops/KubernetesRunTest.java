package io.orderflow.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.support.BesideTheApp;
import io.orderflow.support.ReservedPorts;
import io.orderflow.support.TestServers;

/**
 * The packaged service run the way the manifests run it, in the production profile: the migration Job's
 * container migrates the schema and exits; the operator adds a customer with the same image; the
 * Deployment's container, which does not migrate, serves on that schema, logs JSON lines that carry the
 * caller's trace id and stops gracefully on SIGTERM (readiness DOWN at once while it still serves, then exit). Only the environment the cluster would add (the Secret and the ConfigMap) is this
 * run's own: its schema, key prefix and stand-in settings.
 */
@BesideTheApp
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubernetesRunTest {

    private static final Path JAR = Path.of(System.getProperty("proof.jar", "target/quarkus-app/quarkus-run.jar"));
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    /** quarkus.shutdown.delay and timeout (5 s and 20 s), with room to spare. */
    private static final Duration STOP_LIMIT = Duration.ofSeconds(40);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "kubernetes-run-customer";
    private static final String PASSWORD = "a password of the operator's choosing";

    private static final TestServers SERVERS = new TestServers();
    private static Manifests manifests;
    private static Path workDir;

    @BeforeAll
    static void prepare() throws IOException {
        manifests = Manifests.read();
        workDir = Files.createTempDirectory("kubernetes-run");
        SERVERS.start();
    }

    @AfterAll
    static void cleanUp() {
        SERVERS.stop();
    }

    @Test
    @Order(1)
    void theMigrationJobMigratesTheSchemaAndExits() throws Exception {
        Process job = start("job", manifests.container("Job", Manifests.MIGRATION_JOB), ReservedPorts.next());
        try {
            assertThat(job.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("the Job's container exited").isTrue();
        } finally {
            job.destroyForcibly();
        }
        assertThat(job.exitValue()).as("its exit code").isZero();
        assertThat(number("SELECT count(*) FROM flyway_schema_history WHERE success")).isPositive();
        assertThat(number("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'orders'"))
                .isOne();
        assertThat(jsonLines("job")).isNotEmpty();
    }

    @Test
    @Order(2)
    void theOperatorAddsACustomerWithThePackagedJar() throws Exception {
        Process addUser = start("add-user", manifests.container("Deployment", Manifests.APP), ReservedPorts.next(), "add-user", USER, "customer");
        try (var stdin = addUser.getOutputStream()) {
            stdin.write((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8));
        }
        try {
            assertThat(addUser.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("add-user exited").isTrue();
        } finally {
            addUser.destroyForcibly();
        }
        assertThat(addUser.exitValue()).as("its exit code").isZero();
        // A command serves no one: it stops without the service's shutdown delay (5 s), right after its answer.
        assertThat(runTime("add-user")).as("from its start to its stop, as logged").isLessThan(Duration.ofSeconds(2));
    }

    @Test
    @Order(4)
    void theOperatorDisablesTheCustomerAndListsTheUsers() throws Exception {
        Process disable = start("disable-user", manifests.container("Deployment", Manifests.APP), ReservedPorts.next(), "disable-user", USER);
        Process list;
        try {
            assertThat(disable.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("disable-user exited").isTrue();
            assertThat(disable.exitValue()).as("its exit code").isZero();
            list = start("list-users", manifests.container("Deployment", Manifests.APP), ReservedPorts.next(), "list-users");
        } finally {
            disable.destroyForcibly();
        }
        try {
            assertThat(list.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("list-users exited").isTrue();
        } finally {
            list.destroyForcibly();
        }
        assertThat(list.exitValue()).as("its exit code").isZero();
        assertThat(Files.readAllLines(workDir.resolve("list-users.log"))).filteredOn(line -> line.startsWith(USER + " "))
                .singleElement().satisfies(line -> assertThat(line).contains(" customer ").doesNotEndWith(" -"));
        assertThat(runTime("disable-user")).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    @Order(3)
    void theDeploymentServesWithoutMigratingLogsJsonWithTheTraceAndStopsGracefully() throws Exception {
        long migrations = number("SELECT count(*) FROM flyway_schema_history");
        int port = ReservedPorts.next();
        Process instance = start("instance", manifests.container("Deployment", Manifests.APP), port);
        String traceId = UUID.randomUUID().toString().replace("-", "");
        try {
            await().atMost(START_LIMIT).until(() -> status(port, "/q/health/ready") == 200);
            assertThat(number("SELECT count(*) FROM flyway_schema_history")).as("migrations run by the instance").isEqualTo(migrations);
            // A client of the same trace sends one POST twice with its Idempotency-Key; the service logs the replay.
            String key = UUID.randomUUID().toString();
            assertThat(List.of(tokenRequest(port, key, traceId), tokenRequest(port, key, traceId))).containsOnly(201);

            instance.destroy();
            await().atMost(Duration.ofSeconds(2)).until(() -> status(port, "/q/health/ready") == 503);
            assertThat(status(port, "/q/health/live")).as("still serving while load balancers take it out").isEqualTo(200);
            assertThat(instance.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("exited within the shutdown delay and timeout").isTrue();
        } finally {
            instance.destroyForcibly();
        }
        List<JsonNode> lines = jsonLines("instance");
        assertThat(lines).anySatisfy(line -> assertThat(line.get("message").asText()).contains("started in"));
        assertThat(lines).allSatisfy(line -> assertThat(line.has("timestamp") && line.has("level") && line.has("loggerName")).isTrue());
        assertThat(lines).filteredOn(line -> line.get("message").asText().startsWith("Replayed POST /orders/token"))
                .singleElement().satisfies(line -> assertThat(line.at("/mdc/traceId").asText()).isEqualTo(traceId));
    }

    /** POST /orders/token as the customer the operator added, in the caller's trace; returns the status. */
    private static int tokenRequest(int port, String idempotencyKey, String traceId) throws IOException, InterruptedException {
        String credentials = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders/token")).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + credentials).header("Idempotency-Key", idempotencyKey)
                .header("traceparent", "00-" + traceId + "-" + traceId.substring(0, 16) + "-01")
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static Process start(String name, JsonNode container, int port, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", JAR.toAbsolutePath().toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(workDir.resolve(name + ".log").toFile());
        Map<String, String> environment = builder.environment();
        environment.putAll(Manifests.literalEnv(container));
        environment.putAll(clusterSettings(port));
        return builder.start();
    }

    /** What the Secret and the ConfigMap would give a container in a cluster; here, this run's own servers and stand-ins. */
    private static Map<String, String> clusterSettings(int port) {
        Map<String, String> settings = new HashMap<>();
        settings.put("QUARKUS_DATASOURCE_JDBC_URL", TestServers.POSTGRES_URL + "?currentSchema=" + TestServers.schema());
        settings.put("QUARKUS_DATASOURCE_USERNAME", TestServers.POSTGRES_USER);
        settings.put("QUARKUS_FLYWAY_SCHEMAS", TestServers.schema());
        settings.put("QUARKUS_REDIS_HOSTS", "redis://" + TestServers.REDIS_HOST + ":" + TestServers.REDIS_PORT);
        settings.put("ORDERS_REDIS_KEY_PREFIX", TestServers.keyPrefix());
        settings.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        settings.put("QUARKUS_HTTP_AUTH_SESSION_ENCRYPTION_KEY", "kubernetes-run-test-session-key-0123456789");
        // Never called here: nothing is paid or shipped.
        settings.put("QUARKUS_REST_CLIENT_PAYMENT_PROVIDER_URL", "http://127.0.0.1:9/payments");
        settings.put("QUARKUS_REST_CLIENT_WAREHOUSE_URL", "http://127.0.0.1:9/warehouse");
        settings.put("ORDERS_PAYMENTS_API_KEY", "unused");
        settings.put("ORDERS_WAREHOUSE_API_KEY", "unused");
        // The identity provider's: here the committed test key pair's public half.
        settings.put("MP_JWT_VERIFY_ISSUER", "https://idp.example");
        settings.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", Path.of("src/main/resources/jwt/dev-public-key.pem").toAbsolutePath().toUri().toString());
        // The cluster's traced gateway, whose traceparent the service continues: here this test, from 127.0.0.1.
        settings.put("ORDERS_TRACING_TRUSTED_SOURCES", "127.0.0.1");
        return settings;
    }

    private static int status(int port, String path) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(2)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** From the process's "started in" log line to its "stopped in" one: the command's run and its stop. */
    private static Duration runTime(String name) throws IOException {
        // Its own answer sits among the log's JSON lines.
        List<JsonNode> lines = Files.readAllLines(workDir.resolve(name + ".log")).stream().filter(line -> line.startsWith("{"))
                .map(KubernetesRunTest::jsonLine).toList();
        return Duration.between(loggedAt(lines, "started in"), loggedAt(lines, "stopped in"));
    }

    private static Instant loggedAt(List<JsonNode> lines, String message) {
        return lines.stream().filter(line -> line.get("message").asText().contains(message)).findFirst()
                .map(line -> OffsetDateTime.parse(line.get("timestamp").asText()).toInstant())
                .orElseThrow(() -> new AssertionError("No log line says " + message + ": " + lines));
    }

    /** Every line the process logged, each of which must be a JSON object. */
    private static List<JsonNode> jsonLines(String name) throws IOException {
        return Files.readAllLines(workDir.resolve(name + ".log")).stream().map(KubernetesRunTest::jsonLine).toList();
    }

    private static JsonNode jsonLine(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("Not a JSON line: " + line, e);
        }
    }

    private static long number(String sql) throws SQLException {
        try (Connection db = TestServers.connect(); Statement statement = db.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
