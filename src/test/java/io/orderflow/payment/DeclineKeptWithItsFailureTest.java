package io.orderflow.payment;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * An answer goes out only once it is kept as its Idempotency-Key's answer. A declined pay's 402 is kept
 * together with the failed attempt, in one commit: when that commit fails, nothing of it is kept, the answer
 * is a 503, and a retry with the key re-sends the same attempt (the provider answers the decline it
 * remembers) instead of starting another. A refusal that changed nothing is not sent either when it cannot be kept.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class DeclineKeptWithItsFailureTest {

    private final String key = "doomed-" + UUID.randomUUID();

    @AfterEach
    void theDatabaseKeepsAnswersAgain() {
        Orders.execute("DROP TRIGGER IF EXISTS keeping_fails ON idempotency_keys");
    }

    @Test
    void aDeclineWhoseAnswerCannotBeKeptIsAnsweredLaterUnderTheSameAttempt() {
        String id = newOrder("alice");
        keepingFails();

        pay(id).then().statusCode(503).body("code", equalTo("service-unavailable"));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).as("the failure was not kept either")
                .isEqualTo("PROCESSING");
        assertThat(Orders.value("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", key)).isEqualTo("0");

        theDatabaseKeepsAnswersAgain();
        pay(id).then().statusCode(402).body("code", equalTo("payment-declined"));
        pay(id).then().statusCode(402).header("Idempotent-Replayed", "true");

        assertThat(Orders.values("SELECT idempotency_key || ' ' || status FROM payments WHERE order_id = ?", id))
                .containsExactly("payment:" + id + ":1 FAILURE");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.chargeCalls()).as("the same attempt, sent twice").isEqualTo(2);
        assertThat(ledger.charges()).isZero();
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
    }

    @Test
    void aRefusalWhoseAnswerCannotBeKeptIsNotSentAndTheRetryGetsIt() {
        String id = newOrder("alice");
        keepingFails();

        pay(id, "pm_card_unoffered").then().statusCode(503).body("code", equalTo("service-unavailable"));

        theDatabaseKeepsAnswersAgain();
        pay(id, "pm_card_unoffered").then().statusCode(422).body("code", equalTo("payment-method-not-offered"));
        pay(id, "pm_card_unoffered").then().statusCode(422).header("Idempotent-Replayed", "true");
        assertThat(Orders.value("SELECT count(*) FROM payments WHERE order_id = ?", id)).isEqualTo("0");
        assertThat(Ledger.of(id).chargeCalls()).as("an unoffered method never reaches the provider").isZero();
    }

    private static void keepingFails() {
        Orders.execute("""
                CREATE OR REPLACE FUNCTION keeping_fails() RETURNS trigger AS $$
                BEGIN
                    IF NEW.idempotency_key LIKE 'doomed-%' THEN RAISE EXCEPTION 'no space left on device'; END IF;
                    RETURN NEW;
                END $$ LANGUAGE plpgsql""");
        Orders.execute("CREATE TRIGGER keeping_fails BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION keeping_fails()");
    }

    private Response pay(String id) {
        return pay(id, "pm_card_chargeDeclined");
    }

    private Response pay(String id, String method) {
        return as("alice").header("Idempotency-Key", key).contentType(ContentType.JSON).body("{\"paymentMethod\":\"" + method + "\"}")
                .post("/orders/{id}/pay", id);
    }
}
