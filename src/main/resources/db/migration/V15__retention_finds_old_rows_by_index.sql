-- The retention job (io.orderflow.retention) deletes rows past their age in small batches, each found by
-- the time column. Rows reach these tables in about the order of that column, so a block-range index finds
-- the old rows as well as a B-tree would, costs the inserts next to nothing, and builds in one pass.
-- order_tokens (refused_at) and idempotency_keys (kept_until) have theirs already (V7, V13);
-- reconciliation_reports gets one row per reconciliation run and is read whole.
CREATE INDEX ix_processed_messages_processed_at ON processed_messages USING brin (processed_at);
CREATE INDEX ix_order_notifications_created_at ON order_notifications USING brin (created_at);
CREATE INDEX ix_outbox_delivered_delivered_at ON outbox_delivered USING brin (delivered_at);

-- The sandbox's tables exist only where the sandbox runs (V14).
DO $$
BEGIN
    IF ${sandbox} THEN
        CREATE INDEX ix_sandbox_effects_created_at ON sandbox_effects USING brin (created_at);
        CREATE INDEX ix_sandbox_calls_at ON sandbox_calls USING brin (at);
    END IF;
END
$$;
