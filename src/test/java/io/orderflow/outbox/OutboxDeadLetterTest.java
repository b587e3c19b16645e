package io.orderflow.outbox;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.FakeProviders.Reply;
import io.orderflow.support.FakeProviders;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Dead letters tell staff why they gave up with a problem code and a message, never a class name or SQL, and are counted. */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class OutboxDeadLetterTest {

    private static final String SHIPMENTS = "/warehouse/shipments";

    @AfterEach
    void providersAnswerNormally() {
        FakeProviders.clearScripts();
    }

    @Test
    void aDeadLetterSaysWhyWithACodeAndAMessage() {
        String unavailable = shipmentTheWarehouseAnswers(503);
        String refused = shipmentTheWarehouseAnswers(400);

        String deadLetters = as("ops").get("/outbox/dead-letters").then().statusCode(200)
                .body(lastErrorOf(unavailable), equalTo(Map.of("code", "provider-unavailable", "message", "The provider answered 503")))
                .body(lastErrorOf(refused), equalTo(Map.of("code", "provider-refused", "message", "The provider refused the call with 400")))
                .extract().asString();
        assertThat(deadLetters).doesNotContain("Exception").doesNotContainPattern("\\p{Alpha}\\.\\p{Alpha}");
        // As Prometheus scrapes it; the gauge counts at most once a second.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Metrics.scrape().asString().lines()
                .filter(line -> line.startsWith("orders_outbox_dead ")).map(line -> Double.parseDouble(line.substring(line.indexOf(' ') + 1))))
                .singleElement().satisfies(dead -> assertThat(dead).isGreaterThanOrEqualTo(2.0)));
    }

    /** The key of a shipment whose every attempt the warehouse answers with this status, once it is dead-lettered. */
    private static String shipmentTheWarehouseAnswers(int status) {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        // FakeProviders gives a message three attempts.
        FakeProviders.script(SHIPMENTS, Reply.status(status), Reply.status(status), Reply.status(status));
        act("ops", id, "ship").then().statusCode(200);
        String key = "shipment:" + id;
        await().atMost(Duration.ofSeconds(10)).until(() -> "DEAD".equals(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", key)));
        return key;
    }

    private static String lastErrorOf(String key) {
        return "find { it.key == '" + key + "' }.lastError";
    }
}
