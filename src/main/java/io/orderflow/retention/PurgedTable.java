package io.orderflow.retention;

import java.util.function.Function;

/**
 * A table that only grows, with the statement that deletes one batch of its rows past their age:
 * parameters 1 the cutoff, 2 the batch size. Each picks rows by the time column's index, skips rows
 * another transaction holds (they go at a later run) and deletes by key. No ORDER BY: any rows past the
 * age will do, and the scan stops at the batch's last row instead of sorting every old row first; the
 * oldest rows sit first in these append-only tables anyway. In the order a run purges them.
 */
enum PurgedTable {

    PROCESSED_MESSAGES("processed_messages", Statements.PROCESSED_MESSAGES, false, RetentionConfig.Ages::processedMessages),
    ORDER_NOTIFICATIONS("order_notifications", Statements.ORDER_NOTIFICATIONS, false, RetentionConfig.Ages::orderNotifications),
    OUTBOX_DELIVERED("outbox_delivered", Statements.OUTBOX_DELIVERED, false, RetentionConfig.Ages::outboxDelivered),
    ORDER_TOKENS("order_tokens", Statements.TOKEN_REFUSALS, false, RetentionConfig.Ages::tokenRefusals),
    IDEMPOTENCY_KEYS("idempotency_keys", Statements.IDEMPOTENCY_KEYS, false, RetentionConfig.Ages::idempotencyKeys),
    PROVIDER_EVENTS("provider_events", Statements.PROVIDER_EVENTS, false, RetentionConfig.Ages::providerEvents),
    RECONCILIATION_REPORTS("reconciliation_reports", Statements.RECONCILIATION_REPORTS, false,
            RetentionConfig.Ages::reconciliationReports),
    // Dropped outside the dev, test and demo profiles (V14).
    SANDBOX_EFFECTS("sandbox_effects", Statements.SANDBOX_EFFECTS, true, RetentionConfig.Ages::sandboxEffects),
    SANDBOX_CALLS("sandbox_calls", Statements.SANDBOX_CALLS, true, RetentionConfig.Ages::sandboxCalls);

    private final String table;
    private final String purgeBatch;
    private final boolean mayBeAbsent;
    private final Function<RetentionConfig.Ages, MaxAge> maxAge;

    PurgedTable(String table, String purgeBatch, boolean mayBeAbsent, Function<RetentionConfig.Ages, MaxAge> maxAge) {
        this.table = table;
        this.purgeBatch = purgeBatch;
        this.mayBeAbsent = mayBeAbsent;
        this.maxAge = maxAge;
    }

    /** The table's name: in the database, in the log and as the metrics' {@code table} tag. */
    String table() {
        return table;
    }

    String purgeBatch() {
        return purgeBatch;
    }

    /** Whether the schema may lack the table, which is then passed over. */
    boolean mayBeAbsent() {
        return mayBeAbsent;
    }

    MaxAge maxAge(RetentionConfig.Ages ages) {
        return maxAge.apply(ages);
    }

    private static final class Statements {

        static final String PROCESSED_MESSAGES = """
                DELETE FROM processed_messages WHERE event_id IN (
                    SELECT event_id FROM processed_messages WHERE processed_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        static final String ORDER_NOTIFICATIONS = """
                DELETE FROM order_notifications WHERE id IN (
                    SELECT id FROM order_notifications WHERE created_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        static final String OUTBOX_DELIVERED = """
                DELETE FROM outbox_delivered WHERE id IN (
                    SELECT id FROM outbox_delivered WHERE delivered_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        // Only refusals: a token's order keeps its row for as long as the order.
        static final String TOKEN_REFUSALS = """
                DELETE FROM order_tokens WHERE (customer, token_hash) IN (
                    SELECT customer, token_hash FROM order_tokens WHERE refused_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        // A key answers while kept_until > now (IdempotencyRecords): at kept_until it is past its retention.
        static final String IDEMPOTENCY_KEYS = """
                DELETE FROM idempotency_keys WHERE scope_hash IN (
                    SELECT scope_hash FROM idempotency_keys WHERE kept_until <= ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        static final String PROVIDER_EVENTS = """
                DELETE FROM provider_events WHERE id IN (
                    SELECT id FROM provider_events WHERE received_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        // The newest report is the one staff see (PaymentReconciliation reads the highest id); a small table, one
        // report per reconciliation run, so it needs no index of its own.
        static final String RECONCILIATION_REPORTS = """
                DELETE FROM reconciliation_reports WHERE id IN (
                    SELECT id FROM reconciliation_reports WHERE finished_at < ? AND id < (SELECT max(id) FROM reconciliation_reports)
                    LIMIT ? FOR UPDATE SKIP LOCKED)""";
        static final String SANDBOX_EFFECTS = """
                DELETE FROM sandbox_effects WHERE id IN (
                    SELECT id FROM sandbox_effects WHERE created_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";
        static final String SANDBOX_CALLS = """
                DELETE FROM sandbox_calls WHERE id IN (
                    SELECT id FROM sandbox_calls WHERE at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""";

        private Statements() {
        }
    }
}
