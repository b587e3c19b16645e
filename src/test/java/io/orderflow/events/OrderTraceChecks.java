package io.orderflow.events;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.TraceIds.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.orderflow.outbox.OutboxDelivery;
import io.orderflow.support.Api;
import io.orderflow.support.Orders;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * One order's trace: a client that sends one traceparent with its requests finds the token's, the order's
 * and the payment's spans in that trace, and the consumer's handling of each order event under the span that
 * published it, itself under the request that wrote the event; a refund, and the provider call that makes it, in the
 * trace of the cancellation. Events written outside any trace still travel.
 * Run over each transport: {@link OrderTracingTest} (Redis Streams, the traceparent a stream field) and
 * {@link KafkaOrderTracingTest} (a record header).
 */
abstract class OrderTraceChecks {

    private static final AttributeKey<String> ORDER_ID = AttributeKey.stringKey("orders.order_id");
    private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system");
    private static final AttributeKey<String> DB_TABLE = AttributeKey.stringKey("db.sql.table");
    private static final AttributeKey<String> URL = AttributeKey.stringKey("url.full");
    private static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> OUTBOX_KIND = AttributeKey.stringKey("orders.outbox.kind");
    /** The span of a database transaction (shared.tracing.TransactionSpans). */
    private static final String TRANSACTION_SPAN = "transaction";

    @Inject
    InMemorySpanExporter spans;

    @Inject
    EventsConfig events;

    @Test
    void anOrdersCreationPaymentAndEventsShareTheClientsTrace() {
        String traceId = hex(16);
        String clientSpanId = hex(8);
        String traceParent = "00-" + traceId + "-" + clientSpanId + "-01";

        String token = field(traced(traceParent).post("/orders/token").then().statusCode(201).extract().response(), "token");
        String id = field(traced(traceParent).header("Order-Token", token).contentType(ContentType.JSON).body(Api.ORDER).post("/orders")
                .then().statusCode(201).extract().response(), "id");
        traced(traceParent).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/pay", id).then().statusCode(200);

        // Both events consumed, and every publication of them: an event in flight may be published again (by a consumer
        // group made anew at the start of a deployment, for events its transport may have lost) and read again.
        List<SpanData> trace = await().atMost(Duration.ofSeconds(20)).until(() -> trace(traceId), spans -> notificationsFor(id) == 2
                && named(spans, OrderEvents.PUBLISH_SPAN).size() >= 2
                && named(spans, OrderEventHandler.PROCESS_SPAN).size() == named(spans, OrderEvents.PUBLISH_SPAN).size());
        Map<String, SpanData> byId = trace.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));

        // The three requests, each a server span under the client's.
        Map<String, SpanData> requests = trace.stream().filter(span -> span.getKind() == SpanKind.SERVER && clientSpanId.equals(span.getParentSpanId()))
                .collect(Collectors.toMap(SpanData::getName, Function.identity()));
        assertThat(requests).containsOnlyKeys("POST /orders/token", "POST /orders", "POST /orders/{id}/pay");
        SpanData creation = requests.get("POST /orders");
        SpanData payment = requests.get("POST /orders/{id}/pay");

        // The token scripts, above their Redis calls.
        assertThat(named(trace, "orders.token.issue")).singleElement().satisfies(span -> assertThat(isUnder(span, requests.get("POST /orders/token"), byId)).isTrue());
        for (String step : List.of("orders.token.claim", "orders.token.complete")) {
            SpanData script = named(trace, step).get(0);
            assertThat(isUnder(script, creation, byId)).as(step).isTrue();
            assertThat(trace).as("the Redis call of " + step).anyMatch(span -> span.getParentSpanId().equals(script.getSpanId())
                    && "redis".equals(span.getAttributes().get(DB_SYSTEM)));
        }
        // The database statements of each transaction, under the transaction's own span, which is under its request.
        assertThat(trace).anyMatch(span -> isStatementOn("orders", span) && isInTransaction(span, byId) && isUnder(span, creation, byId));
        assertThat(trace).anyMatch(span -> isStatementOn("payments", span) && isInTransaction(span, byId) && isUnder(span, payment, byId));
        // The provider call.
        assertThat(trace).anyMatch(span -> span.getKind() == SpanKind.CLIENT && String.valueOf(span.getAttributes().get(URL)).contains("/sandbox/payments/charges")
                && isUnder(span, payment, byId));

        // Each event published under the request that wrote it, and consumed under its publication, over the configured transport.
        String transport = events.transport().messagingSystem();
        List<SpanData> published = named(trace, OrderEvents.PUBLISH_SPAN);
        assertThat(published).allMatch(span -> id.equals(span.getAttributes().get(ORDER_ID)) && span.getKind() == SpanKind.PRODUCER
                && transport.equals(span.getAttributes().get(MESSAGING_SYSTEM)));
        assertThat(published).anyMatch(span -> isUnder(span, creation, byId)).anyMatch(span -> isUnder(span, payment, byId));
        List<SpanData> consumed = named(trace, OrderEventHandler.PROCESS_SPAN);
        assertThat(consumed).allMatch(span -> id.equals(span.getAttributes().get(ORDER_ID)) && span.getKind() == SpanKind.CONSUMER
                && transport.equals(span.getAttributes().get(MESSAGING_SYSTEM)));
        assertThat(consumed.stream().map(SpanData::getParentSpanId)).containsExactlyInAnyOrderElementsOf(published.stream().map(SpanData::getSpanId).toList());
    }

    @Test
    void aRefundAndItsProviderCallAreInTheTraceOfTheCancellationThatAskedForIt() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        String traceId = hex(16);
        String traceParent = "00-" + traceId + "-" + hex(8) + "-01";

        traced(traceParent).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/cancel", id).then().statusCode(200);

        // The cancellation's own span ends when its answer is sent, which may be after the refund it asked for was made.
        List<SpanData> trace = await().atMost(Duration.ofSeconds(20)).until(() -> trace(traceId), spans -> named(spans, OutboxDelivery.DELIVERY_SPAN)
                .stream().anyMatch(span -> "refund".equals(span.getAttributes().get(OUTBOX_KIND)))
                && !named(spans, "POST /orders/{id}/cancel").isEmpty());
        Map<String, SpanData> byId = trace.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        SpanData cancellation = named(trace, "POST /orders/{id}/cancel").get(0);
        SpanData refund = named(trace, OutboxDelivery.DELIVERY_SPAN).stream().filter(span -> "refund".equals(span.getAttributes().get(OUTBOX_KIND)))
                .findFirst().orElseThrow();
        assertThat(refund.getAttributes().get(ORDER_ID)).isEqualTo(id);
        assertThat(isUnder(refund, cancellation, byId)).as("the refund under the cancellation").isTrue();
        assertThat(trace).as("the provider's refund call under the refund").anyMatch(span -> span.getKind() == SpanKind.CLIENT
                && String.valueOf(span.getAttributes().get(URL)).contains("/sandbox/payments/refunds") && isUnder(span, refund, byId));
    }

    @Test
    void eventsWrittenWithoutATraceContextAreDeliveredAndConsumed() {
        // Written outside any recorded trace (the test profile starts none of its own): the row has no context.
        String id = newOrder("bob");
        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 1);
        assertThat(Orders.value("SELECT count(*) FROM outbox_delivered WHERE order_id = ? AND trace_parent IS NULL", id)).isEqualTo("1");

        // Written as before the column existed, e.g. by an older instance during a rolling deploy.
        String eventId = UUID.randomUUID().toString();
        Orders.execute("INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at) "
                + "VALUES ('order-event', '" + id + "', 'event:" + eventId + "', '{\"eventId\":\"" + eventId + "\",\"type\":\"paid\",\"event\":\"pay\",\"orderId\":\""
                + id + "\",\"customer\":\"bob\",\"at\":\"2026-01-01T00:00:00Z\"}', 'PENDING', 0, now(), now())");
        await().atMost(Duration.ofSeconds(15)).until(() -> notificationsFor(id) == 2);

        assertThat(spans.getFinishedSpanItems()).noneMatch(span -> id.equals(span.getAttributes().get(ORDER_ID)));
    }

    private static RequestSpecification traced(String traceParent) {
        return as("alice").header("traceparent", traceParent);
    }

    private List<SpanData> trace(String traceId) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(traceId)).toList();
    }

    private static List<SpanData> named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).toList();
    }

    private static boolean isStatementOn(String table, SpanData span) {
        return "postgresql".equals(span.getAttributes().get(DB_SYSTEM)) && table.equals(span.getAttributes().get(DB_TABLE));
    }

    /** Whether the statement's parent is the span of the transaction it ran in. */
    private static boolean isInTransaction(SpanData statement, Map<String, SpanData> byId) {
        SpanData parent = byId.get(statement.getParentSpanId());
        return parent != null && parent.getName().equals(TRANSACTION_SPAN);
    }

    /** Whether the span descends from the ancestor, following parents within the trace. */
    private static boolean isUnder(SpanData span, SpanData ancestor, Map<String, SpanData> byId) {
        for (SpanData parent = byId.get(span.getParentSpanId()); parent != null; parent = byId.get(parent.getParentSpanId())) {
            if (parent.getSpanId().equals(ancestor.getSpanId())) {
                return true;
            }
        }
        return false;
    }

    private static int notificationsFor(String orderId) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM order_notifications WHERE order_id = ?", orderId));
    }
}
