package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Transitions racing each other on the same order, against the real database. */
@QuarkusTest
@WithTestResource(TestServers.class)
class ConcurrentTransitionTest {

    private static final int ROUNDS = 50;

    @Test
    void shipRacingCancelOnAPaidOrderHasExactlyOneWinner() {
        for (int round = 0; round < ROUNDS; round++) {
            String id = OrderTransitionTest.orderAfter(List.of("pay"));
            List<Callable<Response>> race = List.of(() -> act("ops", id, "ship"), () -> act("alice", id, "cancel"));
            List<Response> answers = Parallel.run(race);

            List<Integer> statuses = answers.stream().map(Response::statusCode).toList();
            assertThat(statuses).as("round %d", round).containsExactlyInAnyOrder(200, 409);
            Response winner = answers.get(statuses.indexOf(200));
            assertThat(winner.header("Idempotent-Replayed")).isNull();
            String winningEvent = answers.indexOf(winner) == 0 ? "ship" : "cancel";

            Response order = as("alice").get("/orders/{id}", id);
            assertThat(order.<List<String>>path("history.event")).as("round %d", round).containsExactly("pay", winningEvent);
            assertThat(order.<Integer>path("version")).isEqualTo(2);
            assertThat(order.<String>path("status")).isEqualTo(winningEvent.equals("ship") ? "shipped" : "cancelled");
            assertThat(answers.get(1 - statuses.indexOf(200)).<String>path("code")).isEqualTo("invalid-transition");
        }
    }

    @Test
    void payRacingCancelAlwaysEndsCancelledAndRefundsAnyCharge() {
        for (int round = 0; round < ROUNDS; round++) {
            String id = newOrder("alice");
            Parallel.run(List.<Callable<Response>>of(() -> act("alice", id, "pay"), () -> act("alice", id, "cancel")));

            Response order = as("alice").get("/orders/{id}", id);
            assertThat(order.<String>path("status")).as("round %d", round).isEqualTo("cancelled");
            List<String> history = order.path("history.event");
            assertThat(history).as("round %d", round).isIn(List.of("cancel"), List.of("pay", "cancel"));
            assertThat(order.<Integer>path("version")).isEqualTo(history.size());
            // Whatever the provider charged is given back, exactly once.
            await().atMost(Duration.ofSeconds(10)).until(() -> Ledger.of(id).refunds() == Ledger.of(id).charges());
            assertThat(Ledger.of(id).charges()).as("charges in round %d", round).isLessThanOrEqualTo(1);
            if (history.contains("pay")) {
                assertThat(Ledger.of(id).refunds()).as("refunds in round %d", round).isEqualTo(1);
            }
        }
    }

    @Test
    void thirtyTwoIdenticalShipCallsShipOnce() {
        String id = OrderTransitionTest.orderAfter(List.of("pay"));
        List<Response> answers = Parallel.run(32, () -> act("ops", id, "ship"));

        assertThat(answers).extracting(Response::statusCode).containsOnly(200);
        assertThat(answers).extracting(answer -> answer.<String>path("status")).containsOnly("shipped");
        assertThat(answers.stream().filter(answer -> answer.header("Idempotent-Replayed") == null)).hasSize(1);
        Response order = as("alice").get("/orders/{id}", id);
        assertThat(order.<List<String>>path("history.event")).containsExactly("pay", "ship");
        assertThat(order.<Integer>path("version")).isEqualTo(2);
    }
}
