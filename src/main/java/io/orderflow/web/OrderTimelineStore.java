package io.orderflow.web;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.money.Money;

/**
 * An order's whole story for staff, in time order, read in one statement from every table that keeps a part of it: the
 * order placed, each transition (who, with which command id), each payment attempt (its provider key and outcome), each
 * outbox message (refund, shipment, order event: attempts, last error, trace), the warehouse's receipt, refunds settled by
 * staff, the events consumed, and the deadlines still ahead. Each entry's facts keep the order the statement names them in.
 */
@ApplicationScoped
class OrderTimelineStore {

    /** One moment of the story: when, what kind, and its facts by name (absent facts left out). */
    record Entry(OffsetDateTime at, String kind, Map<String, String> facts) {
    }

    private static final String STORY = """
            SELECT at, kind, facts FROM (
                SELECT o.created_at AS at, 0 AS rank, 'placed' AS kind, json_build_object('customer', o.customer, 'orderNumber', o.order_number,
                       'amount', o.total_amount::text, 'currency', o.currency) AS facts
                FROM orders o WHERE o.id = ?
                UNION ALL
                SELECT h.at, 1, 'transition', json_build_object('event', h.event, 'from', h.from_status, 'to', h.to_status, 'actor', h.actor,
                       'commandId', h.command_id)
                FROM order_history h WHERE h.order_id = ?
                UNION ALL
                SELECT p.created_at, 2, 'payment', json_build_object('attempt', p.attempt, 'status', p.status, 'key', p.idempotency_key,
                       'amount', p.amount::text, 'currency', p.currency, 'method', p.payment_method, 'reference', p.channel_transaction_id,
                       'reason', p.failure_reason, 'updatedAt', p.updated_at)
                FROM payments p WHERE p.order_id = ?
                UNION ALL
                SELECT m.created_at, 3, 'message', json_build_object('kind', m.kind, 'status', m.status, 'key', m.idempotency_key,
                       'attempts', m.attempts, 'nextAttemptAt', CASE WHEN m.status = 'PENDING' THEN m.next_attempt_at END,
                       'errorCode', m.last_error_code, 'error', m.last_error_message, 'traceId', NULLIF(split_part(m.trace_parent, '-', 2), ''))
                FROM outbox m WHERE m.order_id = ?
                UNION ALL
                SELECT d.created_at, 3, 'message', json_build_object('kind', d.kind, 'status', 'DELIVERED', 'key', d.idempotency_key,
                       'attempts', d.attempts, 'deliveredAt', d.delivered_at, 'traceId', NULLIF(split_part(d.trace_parent, '-', 2), ''))
                FROM outbox_delivered d WHERE d.order_id = ?
                UNION ALL
                SELECT s.accepted_at, 4, 'shipment-accepted', json_build_object('reference', s.reference)
                FROM shipment_receipts s WHERE s.order_id = ?
                UNION ALL
                SELECT r.settled_at, 5, 'refund-settled', json_build_object('resolution', r.resolution, 'actor', r.settled_by, 'note', r.note,
                       'refusal', r.refusal, 'key', r.refund_key)
                FROM refund_settlements r WHERE r.order_id = ?
                UNION ALL
                SELECT n.created_at, 6, 'event-consumed', json_build_object('message', n.message, 'eventId', n.event_id)
                FROM order_notifications n WHERE n.order_id = ?
                UNION ALL
                SELECT o.pay_by, 7, 'deadline', json_build_object('event', 'expire', 'failures', o.deadline_failures)
                FROM orders o WHERE o.id = ? AND o.status = 'created' AND o.pay_by IS NOT NULL
                UNION ALL
                SELECT o.deliver_by, 7, 'deadline', json_build_object('event', 'confirm', 'failures', o.deadline_failures)
                FROM orders o WHERE o.id = ? AND o.status = 'shipped' AND o.deliver_by IS NOT NULL
            ) story
            ORDER BY at, rank""";
    private static final int SOURCES = 10;
    private static final TypeReference<LinkedHashMap<String, Object>> FACTS = new TypeReference<>() {
    };

    private final DataSource dataSource;
    private final ObjectMapper json;

    OrderTimelineStore(DataSource dataSource, ObjectMapper json) {
        this.dataSource = dataSource;
        this.json = json;
    }

    /** The story of the order with this id; empty when there is no such order. */
    List<Entry> of(UUID orderId) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(STORY)) {
            for (int source = 1; source <= SOURCES; source++) {
                statement.setObject(source, orderId);
            }
            List<Entry> story = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    story.add(new Entry(rows.getObject(1, OffsetDateTime.class), rows.getString(2), facts(rows.getString(3))));
                }
            }
            return story;
        } catch (SQLException e) {
            throw new IllegalStateException("The story of order " + orderId + " could not be read: " + e.getMessage(), e);
        }
    }

    private Map<String, String> facts(String object) {
        try {
            Map<String, String> facts = new LinkedHashMap<>();
            json.readValue(object, FACTS).forEach((name, value) -> {
                if (value != null) {
                    facts.put(name, String.valueOf(value));
                }
            });
            // Amounts leave PostgreSQL as text, exact, and are written with their currency's minor digits.
            facts.computeIfPresent("amount", (name, amount) -> Money.format(new BigDecimal(amount), facts.get("currency")));
            return facts;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("PostgreSQL's json_build_object always reads as JSON", e);
        }
    }
}
