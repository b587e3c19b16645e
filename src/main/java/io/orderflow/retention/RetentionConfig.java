package io.orderflow.retention;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.retention")
public interface RetentionConfig {

    /** How often the tables that only grow are purged ({@code off} stops it). */
    @WithDefault("10M")
    String interval();

    /** How many rows one batch deletes: each batch is a transaction of its own, holding only these rows locked. */
    @WithDefault("1000")
    int batchSize();

    /**
     * The longest one batch may wait for a lock or run (lock_timeout and statement_timeout): past it the
     * batch gives up, and its table is purged again at the next run.
     */
    @WithDefault("2S")
    Duration batchLockTimeout();

    /** How long each table keeps its rows, counted from its time column; {@code off} keeps them for ever. */
    Ages maxAge();

    interface Ages {

        /**
         * processed_messages, from processed_at: an order event read again finds its id here and notifies
         * nobody twice. Far longer than an event can come back: taken over after
         * {@code orders.events.claim-after}, queued again within {@code orders.events.redeliver-within}.
         */
        @WithDefault("7D")
        MaxAge processedMessages();

        /**
         * outbox_delivered, from delivered_at. A delivered key is never queued again, and a refund is not
         * queued twice for a charge, only while its row is here: once purged, a message queued again under
         * the same key would be delivered again. Nothing queues an old key again (a transition happens once;
         * reconciliation looks back {@code orders.payments.reconciliation.window}; order events come back
         * within {@code orders.events.redeliver-within}), so keep it far longer than both.
         */
        @WithDefault("90D")
        MaxAge outboxDelivered();

        /** order_notifications, from created_at: what customers were told, kept for questions about it. */
        @WithDefault("30D")
        MaxAge orderNotifications();

        /**
         * Refused order tokens in order_tokens, from refused_at: a refusal stops a request still holding the
         * token from making an order after it. Far beyond the longest a holder can take to store its order,
         * which Redis and JDBC timeouts bound. A token's order keeps its row.
         */
        @WithDefault("1D")
        MaxAge tokenRefusals();

        /**
         * idempotency_keys, from kept_until: how long past its own retention ({@code orders.idempotency.retention})
         * a key's row stays. Once past kept_until it answers no request, so nothing needs it any longer.
         */
        @WithDefault("0S")
        MaxAge idempotencyKeys();

        /**
         * provider_events, from received_at: a provider's notification sent again finds its id here. Longer
         * than providers go on repeating one (Stripe: 3 days); a repeat after it settles nothing anew anyway,
         * since every payment and refund changes state only once.
         */
        @WithDefault("7D")
        MaxAge providerEvents();

        /** reconciliation_reports, from finished_at; the newest report, which staff see, is always kept. */
        @WithDefault("30D")
        MaxAge reconciliationReports();

        /**
         * The sandbox's effects (dev, test, demo only), from created_at: the provider's memory of each key.
         * Longer than reconciliation looks back ({@code orders.payments.reconciliation.window}), or it would
         * miss charges and refunds.
         */
        @WithDefault("7D")
        MaxAge sandboxEffects();

        /** The sandbox's calls (dev, test, demo only), from when each arrived: a record for tests and demos. */
        @WithDefault("7D")
        MaxAge sandboxCalls();
    }
}
