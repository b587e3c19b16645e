package io.orderflow.shared.logging;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.TraceIds.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Api;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Each business event of an order is one INFO line, with the order's id, the actor and the trace id of the request
 * that caused it as fields (the MDC, which the JSON log writes out), from creation to delivery, and for a decline, a
 * cancellation and its refund.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class BusinessEventLogTest {

    private final Lines lines = new Lines();
    private final Logger category = Logger.getLogger("io.orderflow.business");

    @BeforeEach
    void listen() {
        category.addHandler(lines);
    }

    @AfterEach
    void stopListening() {
        category.removeHandler(lines);
    }

    @Test
    void anOrderCreatedPaidShippedAndDeliveredIsOneLinePerEventWithItsIdActorAndTrace() {
        String trace = hex(16);
        String id = field(traced("alice", trace).contentType(ContentType.JSON).header("Order-Token", newToken("alice")).body(Api.ORDER)
                .post("/orders").then().statusCode(201).extract().response(), "id");
        act("alice", trace, id, "pay").then().statusCode(200);
        act("ops", trace, id, "ship").then().statusCode(200);
        act("ops", trace, id, "deliver").then().statusCode(200);

        assertThat(lines.of(id)).containsExactly(
                new Line("Order " + id + " created by alice", Map.of("orderId", id, "actor", "alice", "event", "created", "traceId", trace)),
                new Line("Order " + id + " paid by alice", Map.of("orderId", id, "actor", "alice", "event", "paid", "traceId", trace)),
                new Line("Order " + id + " shipped by ops", Map.of("orderId", id, "actor", "ops", "event", "shipped", "traceId", trace)),
                new Line("Order " + id + " delivered by ops", Map.of("orderId", id, "actor", "ops", "event", "delivered", "traceId", trace)));
    }

    @Test
    void aDeclineACancellationAndItsRefundAreEachOneLine() {
        String declined = Api.newOrder("alice");
        String trace = hex(16);
        traced("alice", trace).header("Idempotency-Key", UUID.randomUUID().toString()).contentType(ContentType.JSON)
                .body("{\"paymentMethod\":\"pm_card_chargeDeclined\"}").post("/orders/{id}/pay", declined).then().statusCode(402);
        assertThat(lines.of(declined)).extracting(Line::message).containsExactly("Order " + declined + " created by alice",
                "Order " + declined + " declined by alice");
        assertThat(lines.of(declined).get(1).fields()).containsEntry("traceId", trace);

        String cancelled = Api.newOrder("alice");
        act("alice", trace, cancelled, "pay").then().statusCode(200);
        act("ops", trace, cancelled, "cancel").then().statusCode(200);
        // The refund is tried right after the cancel commits (the two lines in either order), and by the outbox after that.
        await().atMost(Duration.ofSeconds(10)).until(() -> lines.of(cancelled).size() >= 4);
        assertThat(lines.of(cancelled)).extracting(Line::message).containsExactlyInAnyOrder("Order " + cancelled + " created by alice",
                "Order " + cancelled + " paid by alice", "Order " + cancelled + " cancelled by ops", "Order " + cancelled + " refunded by system");
    }

    private static RequestSpecification traced(String user, String trace) {
        return as(user).header("traceparent", "00-" + trace + "-" + hex(8) + "-01");
    }

    private static Response act(String user, String trace, String id, String action) {
        return traced(user, trace).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/{action}", id, action);
    }

    /** A line as logged: its message, and the fields of this feature and the trace id. */
    record Line(String message, Map<String, String> fields) {
    }

    /** The lines of the business events' category, recorded as they are logged, with the MDC of the moment. */
    private static final class Lines extends Handler {

        private static final List<String> FIELDS = List.of(BusinessEvent.ORDER_ID, BusinessEvent.ACTOR, BusinessEvent.EVENT, "traceId");
        private final List<Line> recorded = new CopyOnWriteArrayList<>();

        @Override
        public void publish(LogRecord record) {
            ExtLogRecord logged = (ExtLogRecord) record;
            Map<String, String> mdc = logged.getMdcCopy();
            Map<String, String> fields = new LinkedHashMap<>();
            FIELDS.stream().filter(mdc::containsKey).forEach(key -> fields.put(key, mdc.get(key)));
            recorded.add(new Line(logged.getFormattedMessage(), fields));
        }

        List<Line> of(String orderId) {
            return recorded.stream().filter(line -> orderId.equals(line.fields().get(BusinessEvent.ORDER_ID))).toList();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
