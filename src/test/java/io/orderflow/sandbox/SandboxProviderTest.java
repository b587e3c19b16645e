package io.orderflow.sandbox;

import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** The sandbox provider decides each key once, like a real one, and settles a call that died while processing. */
@QuarkusTest
@WithTestResource(TestServers.class)
class SandboxProviderTest {

    @Test
    void concurrentCallsWithOneKeyChargeOnceAndAnswerTheSameCharge() {
        String id = newOrder("alice");
        String key = "payment:" + id + ":1";

        List<Response> answers = Parallel.run(8, () -> charge(id, key));

        assertThat(answers).extracting(Response::statusCode).containsOnly(201);
        assertThat(answers).extracting(answer -> answer.<String>path("reference")).containsOnly(answers.get(0).<String>path("reference"));
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    @Test
    void aCallThatDiedWhileProcessingIsSettledAsVoidedAndNeverCharges() {
        String id = newOrder("alice");
        String key = "payment:" + id + ":1";
        // A charge whose handling died midway, past the time by which it would have finished.
        Orders.execute("INSERT INTO sandbox_effects (kind, idempotency_key, order_id, amount, currency, reference, status, settles_by, created_at) "
                + "VALUES ('charge', '" + key + "', '" + id + "', 25.00, 'CNY', 'charge_dead', 'processing', now() - interval '1 second', now())");

        asProviderClient().contentType(ContentType.JSON).body("{\"orderId\":\"" + id + "\"}")
                .post("/sandbox/payments/charges/{key}/void", key)
                .then().statusCode(200).body("status", equalTo("voided"));
        charge(id, key).then().statusCode(410).body("status", equalTo("voided"));
        assertThat(Ledger.of(id).charges()).isZero();
    }

    @Test
    void aRefundThatDiedWhileProcessingIsMadeByTheRetryWithItsKey() {
        String id = newOrder("alice");
        String charge = charge(id, "payment:" + id + ":1").then().statusCode(201).extract().path("reference");
        String key = "refund:" + id;
        // A refund whose handling died midway (the provider's database restarted), past the time by which it would have finished.
        Orders.execute("INSERT INTO sandbox_effects (kind, idempotency_key, order_id, amount, currency, reference, status, charge_reference, "
                + "settles_by, created_at) VALUES ('refund', '" + key + "', '" + id + "', 25.00, 'CNY', 'refund_dead', 'processing', '"
                + charge + "', now() - interval '1 second', now())");

        asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\",\"charge\":\"" + charge + "\"}")
                .post("/sandbox/payments/refunds")
                .then().statusCode(201).body("charge", equalTo(charge));
        assertThat(Ledger.of(id).refunds()).isEqualTo(1);
    }

    @Test
    void aKeyVoidedBeforeItsFirstCallCanNeverCharge() {
        String id = newOrder("bob");
        String key = "payment:" + id + ":1";
        List<Response> race = Parallel.run(List.<Callable<Response>>of(
                () -> asProviderClient().contentType(ContentType.JSON).body("{\"orderId\":\"" + id + "\"}")
                        .post("/sandbox/payments/charges/{key}/void", key),
                () -> charge(id, key)));

        // Whichever came first decided the key: either voided (and the charge refused) or charged (and the void answers the charge).
        String voidAnswer = race.get(0).path("status");
        assertThat(voidAnswer).isIn("voided", "succeeded");
        assertThat(race.get(1).statusCode()).isEqualTo("voided".equals(voidAnswer) ? 410 : 201);
        assertThat(Ledger.of(id).charges()).isEqualTo("voided".equals(voidAnswer) ? 0 : 1);
    }

    @Test
    void aWindowBeyondWhatPostgresqlStoresIsRefusedNamingTheParameter() {
        charges(Map.of("since", "+300000-01-01T00:00:00Z")).then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains("since"))
                .body("errors[0].message", startsWith("must lie from -4713-11-24T00:00:00Z to +294276-12-31T23:59:59.999999Z"));
        charges(Map.of("since", "2026-01-01T00:00:00Z", "until", "-4713-11-23T23:59:59.999999Z")).then()
                .statusCode(400)
                .body("errors.field", contains("until"));
        // Sent as it is, this would round up past PostgreSQL's last microsecond.
        charges(Map.of("since", "2026-01-01T00:00:00Z", "until", "+294276-12-31T23:59:59.9999995Z")).then()
                .statusCode(400)
                .body("errors.field", contains("until"));
    }

    @Test
    void aWindowFromTheFirstToTheLastInstantPostgresqlStoresListsTheCharges() {
        String id = newOrder("alice");
        charge(id, "payment:" + id + ":1").then().statusCode(201);

        charges(Map.of("since", "-4713-11-24T00:00:00Z", "until", "+294276-12-31T23:59:59.999999Z", "limit", "1")).then()
                .statusCode(200)
                .body("items.size()", equalTo(1));
    }

    @Test
    void aPageSizeOrCursorOutOfItsRangeIsRefusedNamingTheParameter() {
        charges(Map.of("since", "2026-01-01T00:00:00Z", "limit", "1001")).then()
                .statusCode(400)
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains("limit"));
        charges(Map.of("since", "2026-01-01T00:00:00Z", "after", "-1")).then()
                .statusCode(400)
                .body("errors.field", contains("after"));
    }

    private static Response charges(Map<String, String> query) {
        return asProviderClient().queryParams(query).get("/sandbox/payments/charges");
    }

    private static Response charge(String id, String key) {
        return asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}").post("/sandbox/payments/charges");
    }
}
