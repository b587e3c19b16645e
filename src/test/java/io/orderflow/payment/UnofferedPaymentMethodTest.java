package io.orderflow.payment;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * A pay names one of the offered methods (the test profile offers pm_card_visa, pm_card_chargeDeclined and
 * pm_card_authenticationRequired) or nothing reaches the provider: methods an attacker would try (a
 * provider's test card the shop does not take, an offered one spelt otherwise, a method of their own)
 * are refused, and the order is still there to pay with an offered one.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class UnofferedPaymentMethodTest {

    private static final List<String> ATTEMPTS = List.of("pm_card_visa_debit", "pm_card_mastercard", "PM_CARD_VISA", "pm_card_visa ",
            " pm_card_visa", "pm_card_visa\u0000", "pm_card_visa,pm_card_mastercard", "pm_1QxAttackersOwnCard", "tok_visa", "card_1N4AttackerCard", "");

    @Test
    void aPayWithAMethodTheShopDoesNotOfferChargesNothing() {
        String id = newOrder("alice");
        Map<String, Integer> answers = new TreeMap<>();
        for (String method : ATTEMPTS) {
            Response answer = pay(id, method);
            answers.merge(answer.statusCode() + " " + answer.path("code"), 1, Integer::sum);
            assertThat(answer.statusCode()).as("'%s'", method).isIn(400, 422);
        }
        Ledger ledger = Ledger.of(id);
        System.out.printf("[attack] unoffered payment methods: %d pays, answers %s, provider calls %d, charges %d%n",
                ATTEMPTS.size(), answers, ledger.chargeCalls(), ledger.charges());
        // Well-formed method ids the shop does not take, and ids no provider would issue (spaces, a NUL, a list, empty).
        assertThat(answers).containsExactlyInAnyOrderEntriesOf(Map.of("422 payment-method-not-offered", 3, "400 validation-failed", 8));
        assertThat(ledger.chargeCalls()).isZero();
        assertThat(ledger.charges()).isZero();
        assertThat(Orders.value("SELECT count(*) FROM payments WHERE order_id = ?", id)).isEqualTo("0");

        pay(id, "pm_card_visa").then().statusCode(200);
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    private static Response pay(String id, String method) {
        String body = JsonNodeFactory.instance.objectNode().put("paymentMethod", method).toString();
        return as("alice").header("Idempotency-Key", UUID.randomUUID().toString()).contentType(ContentType.JSON).body(body)
                .post("/orders/{id}/pay", id);
    }
}
