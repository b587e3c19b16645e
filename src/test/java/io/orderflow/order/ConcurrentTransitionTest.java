package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.historyEvents;
import static io.orderflow.support.Api.json;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

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

            JsonNode order = json(as("alice").get("/orders/{id}", id));
            assertThat(historyEvents(order)).as("round %d", round).containsExactly("pay", winningEvent);
            assertThat(order.path("version").asInt()).isEqualTo(2);
            assertThat(order.path("status").asText()).isEqualTo(winningEvent.equals("ship") ? "shipped" : "cancelled");
            assertThat(field(answers.get(1 - statuses.indexOf(200)), "code")).isEqualTo("invalid-transition");
        }
    }

    @Test
    void payRacingCancelAlwaysEndsCancelledAndRefundsAnyCharge() {
        for (int round = 0; round < ROUNDS; round++) {
            String id = newOrder("alice");
            Parallel.run(List.<Callable<Response>>of(() -> act("alice", id, "pay"), () -> act("alice", id, "cancel")));

            JsonNode order = json(as("alice").get("/orders/{id}", id));
            assertThat(order.path("status").asText()).as("round %d", round).isEqualTo("cancelled");
            List<String> history = historyEvents(order);
            assertThat(history).as("round %d", round).isIn(List.of("cancel"), List.of("pay", "cancel"));
            assertThat(order.path("version").asInt()).isEqualTo(history.size());
            // Whatever the provider charged is given back, exactly once.
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                Ledger ledger = Ledger.of(id);
                return ledger.refunds() == ledger.charges();
            });
            Ledger ledger = Ledger.of(id);
            assertThat(ledger.charges()).as("charges in round %d", round).isLessThanOrEqualTo(1);
            if (history.contains("pay")) {
                assertThat(ledger.refunds()).as("refunds in round %d", round).isEqualTo(1);
            }
        }
    }

    @Test
    void thirtyTwoIdenticalShipCallsShipOnce() {
        String id = OrderTransitionTest.orderAfter(List.of("pay"));
        List<Response> answers = Parallel.run(32, () -> act("ops", id, "ship"));

        assertThat(answers).extracting(Response::statusCode).containsOnly(200);
        assertThat(answers).extracting(answer -> field(answer, "status")).containsOnly("shipped");
        assertThat(answers.stream().filter(answer -> answer.header("Idempotent-Replayed") == null)).hasSize(1);
        JsonNode order = json(as("alice").get("/orders/{id}", id));
        assertThat(historyEvents(order)).containsExactly("pay", "ship");
        assertThat(order.path("version").asInt()).isEqualTo(2);
    }
}
