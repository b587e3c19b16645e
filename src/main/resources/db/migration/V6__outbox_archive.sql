-- Delivered messages leave the outbox: the relay moves each one here in the statement that records
-- its delivery, so the outbox holds only what is still to do (PENDING) or gave up (DEAD). Only
-- inserted into, never updated: it needs no vacuum.
CREATE TABLE outbox_delivered (
    id              BIGINT        PRIMARY KEY,                    -- the id it had in the outbox
    kind            VARCHAR(32)   NOT NULL,
    order_id        UUID          NOT NULL,
    idempotency_key VARCHAR(255)  NOT NULL,
    payload         TEXT          NOT NULL,
    attempts        INT           NOT NULL,
    created_at      TIMESTAMPTZ   NOT NULL,
    delivered_at    TIMESTAMPTZ   NOT NULL
);
-- A message whose key was delivered is not queued again (not UNIQUE: a message queued while its
-- namesake was being moved here must still be movable).
CREATE INDEX ix_outbox_delivered_key ON outbox_delivered (idempotency_key);
CREATE INDEX ix_outbox_delivered_order ON outbox_delivered (order_id);

WITH done AS (
    DELETE FROM outbox WHERE status = 'DELIVERED'
    RETURNING id, kind, order_id, idempotency_key, payload, attempts, created_at, coalesce(delivered_at, created_at) AS delivered_at)
INSERT INTO outbox_delivered (id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at)
SELECT id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at FROM done;

ALTER TABLE outbox DROP CONSTRAINT ck_outbox_status;
ALTER TABLE outbox ADD CONSTRAINT ck_outbox_status CHECK (status IN ('PENDING', 'DEAD'));
ALTER TABLE outbox DROP COLUMN delivered_at;

-- Every message, delivered or not, for what asks whether a message was ever queued.
CREATE VIEW outbox_all AS
    SELECT id, kind, order_id, idempotency_key, payload, status, attempts, created_at, NULL::timestamptz AS delivered_at FROM outbox
    UNION ALL
    SELECT id, kind, order_id, idempotency_key, payload, 'DELIVERED', attempts, created_at, delivered_at FROM outbox_delivered;

-- Relays search one lane's kinds at a time, in the order their messages fall due.
DROP INDEX ix_outbox_due;
CREATE INDEX ix_outbox_due ON outbox (kind, next_attempt_at) WHERE status = 'PENDING';
