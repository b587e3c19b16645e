package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * What {@code POST /orders} refuses, and how: every bad request is answered with a 4xx problem
 * detail that gives nothing internal away, stores no order and leaves the order token usable,
 * so the client can fix the request and resubmit it with the same token.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class BadInputTest {

    @TestHTTPResource("/orders")
    URL orders;

    private static final String JSON = "application/json";
    private static final int ONE_MIB = 1024 * 1024;

    /** The one good item of {@link io.orderflow.support.Api#ORDER}, for bodies where another part is wrong. */
    private static final String GOOD_ITEM = "{\"sku\":\"ABC-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}";

    static Stream<Arguments> badOrders() {
        return Stream.of(
                // Malformed JSON
                refused(400, "truncated JSON", ORDER.substring(0, ORDER.length() - 6)),
                refused(400, "trailing garbage after the object", ORDER + " garbage"),
                refused(400, "a second object after the first", ORDER + ORDER),
                refused(400, "single-quoted strings", ORDER.replace('"', '\'')),
                refused(400, "unquoted member names", ORDER.replace("\"currency\"", "currency")),
                refused(400, "a comment", "/* rush */ " + ORDER),
                refused(400, "an empty body", ""),
                refused(400, "a body of only whitespace", "   \n  "),
                refused(400, "the literal null", "null"),
                refused(400, "an array instead of an object", "[" + ORDER + "]"),
                refused(400, "a bare string", "\"one order please\""),
                refused(400, "a bare number", "42"),
                refused(400, "a raw control character inside a string", withSku("\"ABC\t1\"")),
                refused(400, "arrays nested 100 levels deep", nested(100, "[", "]", "")),
                refused(400, "objects nested 100 levels deep as the sku", withSku(nested(100, "{\"a\":", "}", "1"))),

                // Wrong types: a field takes exactly the JSON type it declares
                refused(400, "quantity as the string \"2\"", withQuantity("\"2\"")),
                refused(400, "quantity 2.5", withQuantity("2.5")),
                refused(400, "quantity 2.0", withQuantity("2.0")),
                refused(400, "quantity true", withQuantity("true")),
                refused(400, "quantity null", withQuantity("null")),
                refused(400, "sku as a number", withSku("123")),
                refused(400, "currency as a number", withCurrency("156")),
                refused(400, "items as an object", withItems(GOOD_ITEM)),
                refused(400, "items as a string", withItems("\"ABC-1\"")),
                refused(400, "an item that is a string", withItems("[\"ABC-1\"]")),
                refused(400, "an item that is null", withItems("[null]")),
                refused(400, "unitPrice as a boolean", withUnitPrice("true")),
                refused(400, "unitPrice as an array", withUnitPrice("[\"12.50\"]")),
                refused(400, "unitPrice as an object", withUnitPrice("{\"amount\":\"12.50\"}")),
                refused(400, "unitPrice null", withUnitPrice("null")),
                refused(400, "unitPrice NaN", withUnitPrice("NaN")),
                refused(400, "unitPrice as the string \"1e3\" (exponent notation)", withUnitPrice("\"1e3\"")),
                refused(400, "unitPrice as a string with spaces", withUnitPrice("\" 12.50\"")),

                // Limits
                refused(400, "no items", withItems("[]")),
                refused(400, "101 items", withItems(items(101))),
                refused(400, "quantity 0", withQuantity("0")),
                refused(400, "quantity 1001", withQuantity("1001")),
                refused(400, "a negative quantity", withQuantity("-1")),
                refused(400, "quantity beyond a 32-bit integer", withQuantity("2147483648")),
                refused(400, "quantity 1e400", withQuantity("1e400")),
                refused(400, "unitPrice 0", withUnitPrice("0")),
                refused(400, "unitPrice \"0.00\"", withUnitPrice("\"0.00\"")),
                refused(400, "unitPrice -1", withUnitPrice("-1")),
                refused(400, "unitPrice 1000000.01", withUnitPrice("\"1000000.01\"")),
                refused(400, "unitPrice 1e400 (a huge number)", withUnitPrice("1e400")),
                refused(400, "unitPrice 1e-400 (finer than a fen)", withUnitPrice("1e-400")),
                refused(400, "unitPrice with an exponent beyond any decimal", withUnitPrice("1e-9999999999")),
                refused(400, "unitPrice \"12.505\" in CNY (3 decimals)", withUnitPrice("\"12.505\"")),
                refused(400, "unitPrice 12.505 in CNY as a number", withUnitPrice("12.505")),
                refused(400, "unitPrice 1.5 in JPY (no minor unit)", inCurrency("JPY", "1.5")),
                refused(400, "a sku of 65 characters", withSku(text("A".repeat(65)))),
                refused(400, "an empty sku", withSku(text(""))),
                refused(400, "a sku with a space", withSku(text("ABC 1"))),

                // Currency and required members
                refused(400, "unknown currency XXX", withCurrency(text("XXX"))),
                refused(400, "lowercase currency cny", withCurrency(text("cny"))),
                refused(400, "an empty currency", withCurrency(text(""))),
                refused(400, "no currency", "{\"items\":[" + GOOD_ITEM + "]}"),
                refused(400, "no items member", "{\"currency\":\"CNY\"}"),
                refused(400, "items null", withItems("null")),
                refused(400, "an empty object", "{}"),

                // Unknown and duplicated members
                refused(400, "an unknown extra field", ORDER.replace("}]}", "}],\"discount\":\"100%\"}")),
                refused(400, "an unknown field in an item", ORDER.replace("\"12.50\"}", "\"12.50\",\"note\":\"gift\"}")),
                refused(400, "a duplicated currency key", ORDER.replace("{\"currency\":\"CNY\"", "{\"currency\":\"USD\",\"currency\":\"CNY\"")),
                refused(400, "a duplicated quantity key in an item", ORDER.replace("\"quantity\":2", "\"quantity\":1000,\"quantity\":2")),

                // Hostile skus
                refused(400, "an SQL-looking sku", withSku(text("ABC'; DROP TABLE orders;--"))),
                refused(400, "a sku with an accented letter (café)", withSku(text("caf\u00e9"))),
                refused(400, "a sku with an emoji", withSku(text("ABC-\uD83D\uDE00"))),
                refused(400, "a sku with a right-to-left mark", withSku(text("ABC-\u200F1"))),
                refused(400, "a sku with an escaped NUL character", withSku(text("ABC\\u0000"))),

                // Size and media type
                refused(413, "a body over 1 MiB", ORDER + " ".repeat(ONE_MIB)),
                // A type a form on another site can send, with Basic credentials: refused as cross-site (see CrossSiteApiTest).
                refusedAs("text/plain", 403, "Content-Type text/plain", ORDER),
                refusedAs("application/xml", 415, "Content-Type application/xml", ORDER));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {2}")
    @MethodSource("badOrders")
    void isRefusedWithAProblemAndLeavesTheTokenUsable(String body, String contentType, int expectedStatus, TestInfo testCase) {
        String token = newToken("alice");
        int ordersBefore = Orders.countAll();

        Response refused = as("alice").header("Order-Token", token).contentType(contentType).body(body).post("/orders");
        int ordersAfterRefusal = Orders.countAll();

        Response resubmitted = placeOrder("alice", token, ORDER);
        int ordersAfterResubmit = Orders.countAll();

        String refusal = testCase.getDisplayName() + ", answered:\n" + describe(refused);
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(refused.statusCode()).as("status of %s", refusal).isEqualTo(expectedStatus);
        softly.assertThat(refused.contentType()).as("Content-Type of %s", refusal).startsWith("application/problem+json");
        JsonNode problem = parse(refused.asString());
        softly.assertThat(problem).as("a JSON object body in %s", refusal).isNotNull();
        if (problem != null) {
            softly.assertThat(problem.path("code").asText()).as("code of %s", refusal).isNotBlank();
            softly.assertThat(problem.path("detail").asText()).as("detail of %s", refusal).isNotBlank();
            softly.assertThat(problem.path("status").asInt()).as("status member of %s", refusal).isEqualTo(refused.statusCode());
        }
        softly.assertThat(leaks(refused.asString())).as("internals shown by %s", refusal).isEmpty();
        softly.assertThat(ordersAfterRefusal).as("orders rows after %s", refusal).isEqualTo(ordersBefore);

        String resubmit = testCase.getDisplayName() + ", resubmitting Api.ORDER with the same token answered:\n"
                + describe(resubmitted);
        softly.assertThat(resubmitted.statusCode()).as("status of %s", resubmit).isEqualTo(201);
        softly.assertThat(resubmitted.header("Idempotent-Replayed")).as("a fresh order, not a replay, in %s", resubmit).isNull();
        softly.assertThat(ordersAfterResubmit).as("orders rows after %s", resubmit).isEqualTo(ordersBefore + 1);
        softly.assertAll();
    }

    @Test
    void aSyntaxErrorInsideTheItemsIsMalformedJson() {
        for (String body : List.of("{\"currency\":\"CNY\",\"items\":[{", "{\"currency\":\"CNY\",\"items\":[" + GOOD_ITEM + ",]}")) {
            placeOrder("alice", newToken("alice"), body).then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("code", equalTo("malformed-json"));
        }
    }

    @Test
    void everyWrongFieldIsNamedAtOnce() {
        placeOrder("alice", newToken("alice"), "{\"currency\":\"XXX\",\"items\":[{\"sku\":\"ABC 1\",\"quantity\":0,\"unitPrice\":\"12.50\"}]}")
                .then()
                .statusCode(400)
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains("currency", "items[0].quantity", "items[0].sku"));
    }

    @Test
    void aBodyWithoutLengthThatOutgrowsTheLimitIsRefusedWithAProblem() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(orders.toString()))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("alice:alice".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", JSON)
                .header("Order-Token", newToken("alice"))
                // A stream has no known length: it goes out chunked, and the server learns its size only by reading it.
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream((ORDER + " ".repeat(2 * ONE_MIB)).getBytes(StandardCharsets.UTF_8))))
                .build();
        HttpResponse<String> refused = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(refused.body()).contains("\"code\":\"payload-too-large\"");
    }

    // ---------------------------------------------------------------- the case table's vocabulary

    private static Arguments refused(int status, String description, String body) {
        return refusedAs(JSON, status, description, body);
    }

    private static Arguments refusedAs(String contentType, int status, String description, String body) {
        return Arguments.of(Named.of(description, body), contentType, status);
    }

    /** A JSON string literal; the text is written as is, so it may carry JSON escapes (a backslash-u escape for NUL, say). */
    private static String text(String value) {
        return "\"" + value + "\"";
    }

    private static String withCurrency(String json) {
        return "{\"currency\":" + json + ",\"items\":[" + GOOD_ITEM + "]}";
    }

    private static String withItems(String json) {
        return "{\"currency\":\"CNY\",\"items\":" + json + "}";
    }

    private static String withSku(String json) {
        return withItems("[" + item(json, "2", "\"12.50\"") + "]");
    }

    private static String withQuantity(String json) {
        return withItems("[" + item("\"ABC-1\"", json, "\"12.50\"") + "]");
    }

    private static String withUnitPrice(String json) {
        return withItems("[" + item("\"ABC-1\"", "2", json) + "]");
    }

    private static String inCurrency(String currency, String unitPrice) {
        return "{\"currency\":\"" + currency + "\",\"items\":[" + item("\"ABC-1\"", "2", unitPrice) + "]}";
    }

    private static String item(String sku, String quantity, String unitPrice) {
        return "{\"sku\":" + sku + ",\"quantity\":" + quantity + ",\"unitPrice\":" + unitPrice + "}";
    }

    private static String items(int count) {
        return Collections.nCopies(count, GOOD_ITEM).stream().collect(Collectors.joining(",", "[", "]"));
    }

    private static String nested(int depth, String open, String close, String innermost) {
        return open.repeat(depth) + innermost + close.repeat(depth);
    }

    // ---------------------------------------------------------------- checks

    /** A fully qualified Java name such as {@code com.fasterxml.jackson.databind.JsonMappingException}. */
    private static final Pattern JAVA_NAME = Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+\\.[A-Z]\\w*");
    private static final Pattern STACK_FRAME = Pattern.compile("\\bat [a-z][\\w$]*\\.[\\w$.]+\\(");
    private static final Pattern SQL = Pattern.compile(
            "(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s+\\w+\\s+set|delete\\s+from|drop\\s+table|sqlstate|org\\.postgresql|syntax error at or near|violates \\w+ constraint)\\b");

    /** What an answer must never show: class names, exceptions, stack frames, SQL. Empty when the body is clean. */
    private static List<String> leaks(String body) {
        List<String> found = new ArrayList<>();
        JAVA_NAME.matcher(body).results().forEach(m -> found.add("Java name " + m.group()));
        STACK_FRAME.matcher(body).results().forEach(m -> found.add("stack frame " + m.group()));
        SQL.matcher(body).results().forEach(m -> found.add("SQL " + m.group()));
        Stream.of("Exception", "at io.", "OrderRequest", "BigDecimal", "java.", "jakarta.", "com.fasterxml", "io.orderflow",
                "io.vertx", "org.hibernate", "$Item")
                .filter(body::contains)
                .forEach(marker -> found.add("text " + marker));
        return found;
    }

    private static JsonNode parse(String body) {
        try {
            JsonNode node = new ObjectMapper().readTree(body);
            return node != null && node.isObject() ? node : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static String describe(Response response) {
        String body = response.asString();
        return "HTTP " + response.statusCode() + "\n" + response.headers() + "\n\n"
                + (body.length() > 2000 ? body.substring(0, 2000) + "..." : body);
    }
}
