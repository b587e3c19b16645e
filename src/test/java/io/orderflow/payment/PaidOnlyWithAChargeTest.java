package io.orderflow.payment;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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

/**
 * An order becomes paid only in the transaction that records its successful charge: however many
 * pays arrive at once, with whatever keys and cards, a decline never leaves an order paid.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class PaidOnlyWithAChargeTest {

    private static final String DECLINED_ORDER = "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"DECLINE-51\",\"quantity\":1}]}";
    /** Orders past paying whose successful charges are not exactly one, anywhere in this run's schema. */
    private static final String PAID_WITHOUT_ONE_CHARGE = """
            SELECT count(*) FROM orders o WHERE o.status IN ('paid', 'shipped', 'delivered')
                AND (SELECT count(*) FROM payments p WHERE p.order_id = o.id AND p.status = 'SUCCESS') <> 1""";
    /** Rounds are independent orders: several run at once, each with its own burst of pays. */
    private static final int ROUNDS_AT_ONCE = 4;

    @Test
    void tenConcurrentPaysOfADeclinedOrderLeaveItUnpaid() {
        Parallel.rounds(200, ROUNDS_AT_ONCE, round -> {
            String id = field(placeOrder("alice", newToken("alice"), DECLINED_ORDER).then().statusCode(201).extract().response(), "id");

            List<Response> answers = Parallel.run(10, () -> pay(id, null));

            assertThat(answers).extracting(Response::statusCode).as("round %d", round).allSatisfy(status -> assertThat(status).isIn(402, 409));
            assertThat(answers).filteredOn(answer -> answer.statusCode() == 409).extracting(answer -> field(answer, "code"))
                    .as("round %d", round).containsOnly("payment-in-progress");
            assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).as("round %d", round).isEqualTo("created");
            assertThat(Ledger.of(id).charges()).as("charges in round %d", round).isZero();
        });
        assertThat(Orders.value(PAID_WITHOUT_ONE_CHARGE)).isEqualTo("0");
    }

    @Test
    void aDeclinedCardFollowedAtOnceByGoodOnesChargesOnce() {
        Parallel.rounds(20, ROUNDS_AT_ONCE, round -> {
            String id = newOrder("alice");
            List<Callable<Response>> pays = new ArrayList<>();
            pays.add(() -> pay(id, "pm_card_chargeDeclined"));
            for (int i = 0; i < 9; i++) {
                pays.add(() -> pay(id, "pm_card_visa"));
            }

            List<Response> answers = Parallel.run(pays);

            assertThat(answers).extracting(Response::statusCode).as("round %d", round).allSatisfy(status -> assertThat(status).isIn(200, 402, 409));
            // A good card that finds the order still open pays it; a later look finds it paid.
            Response settled = pay(id, "pm_card_visa");
            assertThat(settled.statusCode()).as("round %d", round).isEqualTo(200);
            assertThat(field(as("alice").get("/orders/{id}", id), "status")).as("round %d", round).isEqualTo("paid");
            assertThat(Ledger.of(id).charges()).as("charges in round %d", round).isEqualTo(1);
            assertThat(Orders.value("SELECT count(*) FROM payments WHERE order_id = ? AND status = 'SUCCESS'", id)).isEqualTo("1");
        });
        assertThat(Orders.value(PAID_WITHOUT_ONE_CHARGE)).isEqualTo("0");
    }

    private static Response pay(String id, String paymentMethod) {
        var request = as("alice").header("Idempotency-Key", UUID.randomUUID().toString());
        if (paymentMethod != null) {
            request.contentType(ContentType.JSON).body("{\"paymentMethod\":\"" + paymentMethod + "\"}");
        }
        return request.post("/orders/{id}/pay", id);
    }
}
