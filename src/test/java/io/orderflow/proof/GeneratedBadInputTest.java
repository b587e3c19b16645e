package io.orderflow.proof;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * Thousands of generated bad requests to every endpoint and header of the API and to the web
 * pages, one after another: none is answered with a server error, none shows a stack trace, a
 * class name or SQL, every refused API request is answered with a problem detail, no refused
 * request writes a row, and the order token that refused orders carried still places its order.
 * The requests come from a seed, printed with the run's figures; {@code -Dproof.seed=N} replays a
 * run and {@code -Dproof.requests=N} makes it longer. Every wrong answer, with the request that got
 * it, is written to {@code target/generated-bad-input-failures.txt}.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class GeneratedBadInputTest {

    private static final long SEED = Long.getLong("proof.seed", 20_260_131L);
    private static final int REQUESTS = Integer.getInteger("proof.requests", 2500);
    private static final int REQUESTS_PER_TOKEN = 500;
    private static final int FAILURES_SHOWN = 10;
    private static final Path FAILURES = Path.of("target", "generated-bad-input-failures.txt");
    /** The API document as served; OpenApiDocumentTest keeps the two the same. */
    private static final Path API_DOCUMENT = Path.of("src", "test", "openapi", "orders-api.json");

    /**
     * Counts every row written, by table and kind of write, where a refusal must leave no trace: orders and
     * their lines, history and payments, the catalog and its stock. Triggers count as the rows are written,
     * so that reading what was written costs the same however full the tables are.
     */
    private static final String COUNT_WRITES = """
            CREATE TABLE bad_input_writes (written text PRIMARY KEY, times bigint NOT NULL);
            CREATE FUNCTION count_bad_input_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO bad_input_writes VALUES (TG_TABLE_NAME || ' ' || lower(TG_OP), 1)
                ON CONFLICT (written) DO UPDATE SET times = bad_input_writes.times + 1;
                RETURN NULL;
            END $$;
            CREATE TRIGGER count_bad_input_writes AFTER INSERT OR UPDATE OR DELETE ON orders
                FOR EACH ROW EXECUTE FUNCTION count_bad_input_write();
            CREATE TRIGGER count_bad_input_writes AFTER INSERT OR UPDATE OR DELETE ON order_items
                FOR EACH ROW EXECUTE FUNCTION count_bad_input_write();
            CREATE TRIGGER count_bad_input_writes AFTER INSERT OR UPDATE OR DELETE ON order_history
                FOR EACH ROW EXECUTE FUNCTION count_bad_input_write();
            CREATE TRIGGER count_bad_input_writes AFTER INSERT OR UPDATE OR DELETE ON payments
                FOR EACH ROW EXECUTE FUNCTION count_bad_input_write();
            CREATE TRIGGER count_bad_input_writes AFTER INSERT OR UPDATE OR DELETE ON products
                FOR EACH ROW EXECUTE FUNCTION count_bad_input_write();
            CREATE TRIGGER count_bad_input_writes AFTER INSERT OR UPDATE OR DELETE ON stock_adjustments
                FOR EACH ROW EXECUTE FUNCTION count_bad_input_write();""";
    private static final String STOP_COUNTING_WRITES = """
            DROP TRIGGER count_bad_input_writes ON orders;
            DROP TRIGGER count_bad_input_writes ON order_items;
            DROP TRIGGER count_bad_input_writes ON order_history;
            DROP TRIGGER count_bad_input_writes ON payments;
            DROP TRIGGER count_bad_input_writes ON products;
            DROP TRIGGER count_bad_input_writes ON stock_adjustments;
            DROP FUNCTION count_bad_input_write();
            DROP TABLE bad_input_writes;""";
    private static final String WRITTEN = "SELECT coalesce(string_agg(written || ' ' || times, ', ' ORDER BY written), 'nothing') FROM bad_input_writes";

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL server;

    @Test
    void noBadRequestFailsTheServerShowsItsInsidesOrWritesAnything() throws IOException, SQLException {
        String csrf = given().get("/login").cookie("csrf-token");
        BadRequests.Targets targets = new BadRequests.Targets(newToken("alice"), newToken("bob"), List.of(newOrder("alice"), newOrder("alice")),
                newOrder("bob"), Products.newProduct("10.00", 1000), Map.of("alice", signedIn("alice", csrf), "ops", signedIn("ops", csrf)), csrf);
        BadRequests generator = new BadRequests(SEED);
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();

        long started = System.nanoTime();
        String writtenInAll;
        try (Connection db = TestServers.connect()) {
            execute(db, COUNT_WRITES);
            try {
                // Nothing writes these tables behind a request's back, so what one request left is what the next starts from.
                String written = written(db);
                for (int i = 1; i <= REQUESTS; i++) {
                    RawHttp.Request request = generator.next(targets);
                    RawHttp.Answer answer;
                    try {
                        answer = RawHttp.send(server.getPort(), request);
                    } catch (IOException noAnswer) {
                        failures.add("request #" + i + ": no answer (" + noAnswer + ")\n" + request.describe());
                        written = written(db);
                        continue;
                    }
                    String writtenBefore = written;
                    written = written(db);
                    statuses.merge(answer.status(), 1, Integer::sum);

                    List<String> wrong = wrongAbout(request, answer);
                    // A declined payment is a business answer and is recorded; every other refusal leaves no trace.
                    if (answer.status() >= 400 && answer.status() != 402 && !writtenBefore.equals(written)) {
                        wrong.add("refused, yet it wrote: rows written before it " + writtenBefore + ", after it " + written);
                    }
                    if (!wrong.isEmpty()) {
                        failures.add("request #" + i + ": " + String.join("; ", wrong) + "\n" + request.describe() + "\nanswered:\n" + answer.describe());
                    }
                    if ((answer.status() == 201 || answer.status() == 303) && mentions(request, targets.orderToken())) {
                        // Perhaps placed an order with the token (generated input is sometimes right): go on with a fresh one.
                        targets = targets.withOrderToken(newToken("alice"));
                    } else if (i % REQUESTS_PER_TOKEN == 0 || i == REQUESTS) {
                        // Now and then, and at the end, the token of the refused orders must still place its order; a fresh one
                        // follows, as a token lives only minutes and a long run would outlive it.
                        String burnt = failsToPlaceItsOrder(targets.orderToken());
                        if (burnt != null) {
                            failures.add("after request #" + i + ": " + burnt);
                        }
                        targets = targets.withOrderToken(newToken("alice"));
                        written = written(db);
                    }
                }
                writtenInAll = written;
            } finally {
                execute(db, STOP_COUNTING_WRITES);
            }
        }
        Files.write(FAILURES, failures);
        System.out.println(summary(statuses, Duration.ofNanos(System.nanoTime() - started)));

        assertThat(failures).as("%d of %d generated requests answered wrongly (seed %d, all in %s); the first:\n\n%s", failures.size(), REQUESTS,
                SEED, FAILURES,
                String.join("\n\n---\n\n", failures.subList(0, Math.min(FAILURES_SHOWN, failures.size())))).isEmpty();
        assertThat(reservedBeyondOrders(targets.product())).as("reserved stock of %s that no open order holds", targets.product()).isZero();
        // The requests that were accepted wrote rows, and the count saw them: a count that sees nothing would pass any refusal.
        assertThat(writtenInAll).contains("orders insert", "order_items insert", "products update");
    }

    /** The generator's query parameters are written by hand: a parameter the document gains must not go untried. */
    @Test
    void everyQueryParameterTheApiDocumentDeclaresGetsGeneratedValues() throws IOException {
        Map<String, List<String>> declared = new TreeMap<>();
        JSON.readTree(Files.readString(API_DOCUMENT)).path("paths").fields().forEachRemaining(path -> path.getValue().forEach(
                operation -> operation.path("parameters").forEach(parameter -> {
                    if (parameter.path("in").asText().equals("query")) {
                        declared.computeIfAbsent(path.getKey(), p -> new ArrayList<>()).add(parameter.path("name").asText());
                    }
                })));

        assertThat(BadRequests.QUERY_PARAMETERS.keySet()).containsExactlyInAnyOrderElementsOf(declared.keySet());
        declared.forEach((path, names) -> assertThat(BadRequests.QUERY_PARAMETERS.get(path)).as("the query parameters generated for %s", path)
                .containsExactlyInAnyOrderElementsOf(names));
    }

    private static boolean sentBearer(RawHttp.Request request) {
        return request.headers.stream().anyMatch(header -> header[0].equalsIgnoreCase("Authorization") && header[1] != null
                && header[1].regionMatches(true, 0, "Bearer ", 0, "Bearer ".length()));
    }

    /** What is wrong with an answer, whatever the request: empty when it is fine. */
    private static List<String> wrongAbout(RawHttp.Request request, RawHttp.Answer answer) {
        List<String> wrong = new ArrayList<>();
        int status = answer.status();
        if (status >= 500) {
            wrong.add("a server error");
        }
        String contentType = answer.header("Content-Type") == null ? "" : answer.header("Content-Type").toLowerCase(Locale.ROOT);
        boolean webPage = isWebPage(request.target) && contentType.startsWith("text/html");
        if (status >= 400 && answer.body().length > 0 && !webPage) {
            if (!contentType.startsWith("application/problem+json")) {
                wrong.add("a " + status + " that is no problem detail but " + contentType);
            } else if (!isProblem(answer)) {
                wrong.add("a problem detail without a code or with another status");
            }
        }
        // A refused bearer token is asked for another token (RFC 6750); anything else for Basic credentials.
        String challenge = sentBearer(request) ? "Bearer" : "Basic";
        if (status == 401 && (answer.header("WWW-Authenticate") == null || !answer.header("WWW-Authenticate").startsWith(challenge))) {
            wrong.add("a 401 without WWW-Authenticate: " + challenge);
        }
        // Text the request sent may come back (a sku in a detail): only what it did not send counts.
        List<String> shown = Leaks.in(answer.text() + "\n" + answer.header("Location"));
        shown.removeAll(Leaks.in(request.describe()));
        if (!shown.isEmpty()) {
            wrong.add("it shows " + shown);
        }
        return wrong;
    }

    private static boolean isWebPage(String target) {
        return target.startsWith("/checkout") || target.startsWith("/login") || target.equals("/") || target.startsWith("/j_security_check");
    }

    private static boolean isProblem(RawHttp.Answer answer) {
        try {
            JsonNode problem = JSON.readTree(answer.body());
            return problem != null && !problem.path("code").asText().isBlank() && problem.path("status").asInt() == answer.status();
        } catch (IOException notJson) {
            return false;
        }
    }

    private static boolean mentions(RawHttp.Request request, String token) {
        return request.headers.stream().anyMatch(header -> header[1].contains(token))
                || request.body != null && new String(request.body, StandardCharsets.UTF_8).contains(token);
    }

    /** Null when a token that only refused requests carried places {@code Api.ORDER} as a fresh order; else what happened instead. */
    private static String failsToPlaceItsOrder(String token) {
        int ordersBefore = Orders.countForToken(token);
        Response placed = placeOrder("alice", token, ORDER);
        if (ordersBefore == 0 && placed.statusCode() == 201 && placed.header("Idempotent-Replayed") == null) {
            return null;
        }
        return "the order token of the refused orders, with " + ordersBefore + " orders before, then placed Api.ORDER with HTTP "
                + placed.statusCode() + (placed.header("Idempotent-Replayed") == null ? "" : " replayed") + ": " + placed.asString();
    }

    /** Reserved stock of a product beyond what its created and paid orders hold: 0 when no write was left half done. */
    private static int reservedBeyondOrders(String sku) {
        return Integer.parseInt(Orders.value("""
                SELECT p.reserved - coalesce((SELECT sum(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
                    WHERE i.sku = p.sku AND o.stock_reserved AND o.status IN ('created', 'paid')), 0)
                FROM products p WHERE p.sku = ?""", sku));
    }

    private static void execute(Connection db, String statements) throws SQLException {
        try (Statement statement = db.createStatement()) {
            statement.execute(statements);
        }
    }

    private static String written(Connection db) throws SQLException {
        try (Statement statement = db.createStatement(); ResultSet row = statement.executeQuery(WRITTEN)) {
            row.next();
            return row.getString(1);
        }
    }

    /** The cookies of a browser signed in with the form that holds the given CSRF token. */
    private static String signedIn(String user, String csrf) {
        String session = signIn(new CookieFilter(), user, user).then().statusCode(302).extract().cookie("quarkus-credential");
        return "quarkus-credential=" + session + "; csrf-token=" + csrf;
    }

    private static String summary(Map<Integer, Integer> statuses, Duration took) {
        int[] classes = new int[6];
        statuses.forEach((status, count) -> classes[status / 100] += count);
        return String.format("GeneratedBadInputTest: seed %d, %d requests in %d s: 2xx %d, 3xx %d, 4xx %d, 5xx %d; by status %s", SEED, REQUESTS,
                took.toSeconds(), classes[2], classes[3], classes[4], classes[5], statuses);
    }
}
