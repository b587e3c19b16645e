package io.orderflow.idempotency;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.historyEvents;
import static io.orderflow.support.Api.json;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * An Idempotency-Key is scoped by the route and the canonical form of its parameters. On every POST that
 * takes a key, the same key and body sent again with the path spelt otherwise (the order id in upper case,
 * a trailing slash, percent-encoding) gets the first answer, {@code Idempotent-Replayed: true}, and the
 * request's effect happens once: PostgreSQL keeps one record for the key, under the canonical path.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class KeyScopeSpellingTest {

    private static final String DECLINED = "{\"paymentMethod\":\"pm_card_chargeDeclined\"}";
    private static final String KEY_RECORDS = "SELECT count(*) || ' ' || min(path) FROM idempotency_keys WHERE idempotency_key = ?";

    @Test
    void aDeclinedPayIsReplayedToEverySpellingOfItsOrderIdAndChargedOnce() {
        String id = newOrder("alice");
        String path = "/orders/" + id + "/pay";
        String key = newKey();
        Response first = post(as("alice").contentType(ContentType.JSON).body(DECLINED), key, path);
        first.then().statusCode(402);

        for (String spelling : spellings(path, id)) {
            assertReplayed(first, post(as("alice").contentType(ContentType.JSON).body(DECLINED), key, spelling), spelling);
        }
        assertThat(Ledger.of(id).chargeCalls()).as("charge calls to the provider").isEqualTo(1);
        assertOneRecord(key, path);
    }

    @Test
    void aCancelIsReplayedToEverySpellingOfItsOrderIdAndHappensOnce() {
        String id = newOrder("alice");
        assertTransitionReplayed("alice", id, "cancel");
    }

    @Test
    void aShipIsReplayedToEverySpellingOfItsOrderIdAndHappensOnce() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        assertTransitionReplayed("ops", id, "ship");
    }

    @Test
    void aDeliverIsReplayedToEverySpellingOfItsOrderIdAndHappensOnce() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200);
        assertTransitionReplayed("ops", id, "deliver");
    }

    @Test
    void anOrderIsCreatedOnceWhateverTheSpellingOfOrders() {
        String key = newKey();
        Response first = post(as("alice").contentType(ContentType.JSON).header("Order-Token", newToken("alice")).body(ORDER), key, "/orders");
        first.then().statusCode(201);

        for (String spelling : spellings("/orders", null)) {
            // A fresh token each time: only the key can make the request a replay.
            String token = newToken("alice");
            assertReplayed(first, post(as("alice").contentType(ContentType.JSON).header("Order-Token", token).body(ORDER), key, spelling), spelling);
            assertThat(Orders.countForToken(token)).as("orders of the token sent to %s", spelling).isZero();
        }
        assertOneRecord(key, "/orders");
    }

    @Test
    void anOrderTokenIsIssuedOnceWhateverTheSpellingOfItsPath() {
        String key = newKey();
        Response first = post(as("alice"), key, "/orders/token");
        first.then().statusCode(201);

        // The same bytes: the same token, not a second one.
        for (String spelling : spellings("/orders/token", null)) {
            assertReplayed(first, post(as("alice"), key, spelling), spelling);
        }
        assertOneRecord(key, "/orders/token");
    }

    @Test
    void aProductIsAddedOnceWhateverTheSpellingOfProducts() {
        String sku = "K-" + UUID.randomUUID().toString().substring(0, 8).toUpperCase(Locale.ROOT);
        String product = "{\"sku\":\"" + sku + "\",\"name\":\"Tea\",\"description\":\"\",\"price\":\"3.00\",\"currency\":\"CNY\",\"onHand\":4,"
                + "\"active\":true}";
        String key = newKey();
        Response first = post(as("ops").contentType(ContentType.JSON).body(product), key, "/products");
        first.then().statusCode(201);

        for (String spelling : spellings("/products", null)) {
            assertReplayed(first, post(as("ops").contentType(ContentType.JSON).body(product), key, spelling), spelling);
        }
        assertThat(Products.stock(sku)).isEqualTo("4/0");
        assertOneRecord(key, "/products");
    }

    @Test
    void aStockAdjustmentIsAppliedOnceWhateverTheSpellingOfItsSku() {
        // Its sku is in upper case already: SKUs are case-sensitive, so another case would be another product.
        String sku = Products.newProduct("3.00", 10);
        String path = "/products/" + sku + "/stock";
        String adjustment = "{\"delta\":5,\"reason\":\"delivery\"}";
        String key = newKey();
        Response first = post(as("ops").contentType(ContentType.JSON).body(adjustment), key, path);
        first.then().statusCode(200);

        for (String spelling : spellings(path, sku)) {
            assertReplayed(first, post(as("ops").contentType(ContentType.JSON).body(adjustment), key, spelling), spelling);
        }
        assertThat(Products.stock(sku)).isEqualTo("15/0");
        assertOneRecord(key, path);
    }

    @Test
    void aDeadLetterRetryIsAnsweredOnceWhateverTheSpellingOfItsId() {
        // No such dead letter: its 404 is kept, and every spelling of the id gets it from the key.
        String path = "/outbox/dead-letters/987654321/retry";
        String key = newKey();
        Response first = post(as("ops"), key, path);
        first.then().statusCode(404);

        for (String spelling : spellings(path, "987654321")) {
            assertReplayed(first, post(as("ops"), key, spelling), spelling);
        }
        assertOneRecord(key, path);
    }

    @Test
    void aRefusedRefundsSettlementIsAnsweredOnceWhateverTheSpellingOfItsId() {
        // No such refused refund: its 404 is kept, and every spelling of the id gets it from the key.
        String path = "/payments/refunds/refused/987654321/settle";
        String key = newKey();
        String body = "{\"resolution\":\"refunded-outside\",\"note\":\"by hand\"}";
        Response first = post(as("ops").contentType(ContentType.JSON).body(body), key, path);
        first.then().statusCode(404);

        for (String spelling : spellings(path, "987654321")) {
            assertReplayed(first, post(as("ops").contentType(ContentType.JSON).body(body), key, spelling), spelling);
        }
        assertOneRecord(key, path);
    }

    @Test
    void aReconciliationRunIsAnsweredOnceWhateverTheSpellingOfItsPath() {
        String key = newKey();
        Response first = post(as("ops"), key, "/payments/reconciliation");
        first.then().statusCode(200);

        for (String spelling : spellings("/payments/reconciliation", null)) {
            assertReplayed(first, post(as("ops"), key, spelling), spelling);
        }
        assertOneRecord(key, "/payments/reconciliation");
    }

    @Test
    void aPathThatNamesNoOrderIsRefusedWithAProblemNeverA500() {
        // Not an id, percent-encoding of no UTF-8 text, an encoded slash, an id far too long: none names an order.
        // A NUL, which PostgreSQL cannot keep in the key's scope, with or without an id before it.
        for (String path : List.of("/orders/not-an-id/pay", "/orders/%E0%A4/pay", "/orders/a%2Fb/pay",
                "/orders/" + "0".repeat(300) + "/pay", "/orders/%00/cancel", "/orders/" + newOrder("alice") + "%00/cancel")) {
            Response answer = post(as("alice").contentType(ContentType.JSON).body(DECLINED), newKey(), path);
            assertThat(answer.statusCode()).as("status for %s", path).isBetween(400, 499);
        }
    }

    /** The transition, then every other spelling of its path with the same key: one answer, one history entry. */
    private static void assertTransitionReplayed(String user, String id, String action) {
        String path = "/orders/" + id + "/" + action;
        String key = newKey();
        Response first = post(as(user), key, path);
        first.then().statusCode(200).header("Idempotent-Replayed", (String) null);

        for (String spelling : spellings(path, id)) {
            assertReplayed(first, post(as(user), key, spelling), spelling);
        }
        List<String> history = historyEvents(json(as("alice").get("/orders/{id}", id)));
        assertThat(history.stream().filter(action::equals)).as("%s in the history", action).hasSize(1);
        assertOneRecord(key, path);
    }

    /**
     * The path spelt otherwise, as a client or a proxy may send it: the parameter in upper case, a trailing
     * slash, the parameter (or, without one, a letter of the route) percent-encoded, and all of these at once.
     */
    private static List<String> spellings(String path, String parameter) {
        List<String> spellings = new ArrayList<>();
        String upper = parameter == null ? path : path.replace(parameter, parameter.toUpperCase(Locale.ROOT));
        if (!upper.equals(path)) {
            spellings.add(upper);
        }
        spellings.add(path + "/");
        String encoded = parameter == null ? encodeLastSegmentsFirstLetter(path) : path.replace(parameter, percentEncoded(parameter));
        spellings.add(encoded);
        if (!upper.equals(path)) {
            spellings.add(path.replace(parameter, percentEncoded(parameter.toUpperCase(Locale.ROOT))) + "/");
        }
        return spellings;
    }

    private static String encodeLastSegmentsFirstLetter(String path) {
        int start = path.lastIndexOf('/') + 1;
        return path.substring(0, start) + percentEncoded(path.substring(start, start + 1)) + path.substring(start + 1);
    }

    /** Every byte as %XX, which a server decodes to the same text. */
    private static String percentEncoded(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            encoded.append('%').append(String.format(Locale.ROOT, "%02X", b));
        }
        return encoded.toString();
    }

    /** POST to the path exactly as written: RestAssured would otherwise encode its percent signs again. */
    private static Response post(RequestSpecification request, String key, String path) {
        return request.urlEncodingEnabled(false).header("Idempotency-Key", key).post(path);
    }

    private static void assertReplayed(Response first, Response again, String spelling) {
        assertThat(again.statusCode()).as("status for %s", spelling).isEqualTo(first.statusCode());
        assertThat(again.header("Idempotent-Replayed")).as("Idempotent-Replayed for %s", spelling).isEqualTo("true");
        assertThat(again.asString()).as("body for %s", spelling).isEqualTo(first.asString());
    }

    /** One record of the key in PostgreSQL, under the canonical path: the spellings made no record of their own. */
    private static void assertOneRecord(String key, String path) {
        assertThat(Orders.value(KEY_RECORDS, key)).isEqualTo("1 " + path);
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }
}
