package io.orderflow.payment;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * A pay names how to pay; a declined attempt is remembered by the provider under its key, so the
 * next pay is a new attempt with a key of its own.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class PaymentMethodTest {

    @Test
    void aDeclinedCardThenAGoodOneEndsPaidWithOneChargeUnderTwoKeys() {
        String id = newOrder("alice");

        pay(id, "{\"paymentMethod\":\"pm_card_chargeDeclined\"}").then().statusCode(402).body("code", equalTo("payment-declined"));
        pay(id, "{\"paymentMethod\":\"pm_card_visa\"}").then().statusCode(200).body("status", equalTo("paid"));

        assertThat(Orders.value("SELECT string_agg(idempotency_key || '=' || status, ',' ORDER BY attempt) FROM payments WHERE order_id = ?", id))
                .isEqualTo("payment:" + id + ":1=FAILURE,payment:" + id + ":2=SUCCESS");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.chargeCalls()).isEqualTo(2);

        // The provider remembers the decline under its key, whatever the repeat carries.
        asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":1")
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\",\"paymentMethod\":\"pm_card_visa\"}")
                .post("/sandbox/payments/charges").then().statusCode(402).body("status", equalTo("declined"));
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    @Test
    void payingWithoutABodyUsesTheDefaultMethod() {
        String id = newOrder("bob");
        as("bob").header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/pay", id)
                .then().statusCode(200).body("status", equalTo("paid"));
        assertThat(Orders.value("SELECT payment_method FROM payments WHERE order_id = ?", id)).isEqualTo("pm_card_visa");
    }

    @Test
    void aMalformedPaymentMethodIsRefusedAndNothingIsCharged() {
        String id = newOrder("alice");
        pay(id, "{\"paymentMethod\":\"visa; DROP TABLE\"}").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("validation-failed"))
                .body("errors[0].field", equalTo("paymentMethod"));
        pay(id, "{\"paymentMethod\":42}").then().statusCode(400);
        pay(id, "{\"card\":\"4242\"}").then().statusCode(400);
        assertThat(Orders.value("SELECT count(*) FROM payments WHERE order_id = ?", id)).isEqualTo("0");
        assertThat(Ledger.of(id).chargeCalls()).isZero();
    }

    private static Response pay(String id, String body) {
        return as("alice").header("Idempotency-Key", UUID.randomUUID().toString()).contentType(ContentType.JSON).body(body)
                .post("/orders/{id}/pay", id);
    }
}
