-- One payment per order and provider key; the insert is the claim that lets one request charge.
CREATE TABLE payments (
    id                     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    idempotency_key        VARCHAR(255)  NOT NULL,                -- payment:{orderId}, sent to the provider
    order_id               UUID          NOT NULL REFERENCES orders (id),
    amount                 NUMERIC(19,4) NOT NULL,
    currency               CHAR(3)       NOT NULL,
    status                 VARCHAR(16)   NOT NULL,
    channel                VARCHAR(32)   NOT NULL,
    channel_transaction_id VARCHAR(255),
    claimed_until          TIMESTAMPTZ,                           -- lease of the request talking to the provider
    failure_reason         VARCHAR(255),
    created_at             TIMESTAMPTZ   NOT NULL,
    updated_at             TIMESTAMPTZ   NOT NULL,
    CONSTRAINT uq_payments_idempotency_key UNIQUE (idempotency_key),
    CONSTRAINT ck_payments_status CHECK (status IN ('PROCESSING', 'SUCCESS', 'FAILURE', 'REFUNDED'))
);
CREATE INDEX ix_payments_order ON payments (order_id);
CREATE INDEX ix_payments_unresolved ON payments (claimed_until) WHERE status = 'PROCESSING';

-- Work to do after a commit (refunds, shipments, order events), written in the same transaction
-- as the change that calls for it and delivered with persisted exponential backoff.
CREATE TABLE outbox (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind            VARCHAR(32)   NOT NULL,
    order_id        UUID          NOT NULL,
    idempotency_key VARCHAR(255)  NOT NULL,                       -- refund:{orderId}, shipment:{orderId}, event:{id}
    payload         TEXT          NOT NULL,
    status          VARCHAR(16)   NOT NULL,
    attempts        INT           NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ   NOT NULL,
    last_error      VARCHAR(1000),
    created_at      TIMESTAMPTZ   NOT NULL,
    delivered_at    TIMESTAMPTZ,
    CONSTRAINT uq_outbox_idempotency_key UNIQUE (idempotency_key),
    CONSTRAINT ck_outbox_status CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD'))
);
CREATE INDEX ix_outbox_due ON outbox (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX ix_outbox_dead ON outbox (id) WHERE status = 'DEAD';

-- Order events taken from the Redis Stream: a redelivered event finds its id here and has no second effect.
CREATE TABLE processed_messages (
    event_id     UUID         PRIMARY KEY,
    consumer     VARCHAR(64)  NOT NULL,
    processed_at TIMESTAMPTZ  NOT NULL
);

-- What the consumer of order events does: one notification per event for the order's customer.
CREATE TABLE order_notifications (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id   UUID         NOT NULL,
    order_id   UUID         NOT NULL,
    customer   VARCHAR(255) NOT NULL,
    message    VARCHAR(255) NOT NULL,
    created_at TIMESTAMPTZ  NOT NULL
);
CREATE INDEX ix_order_notifications_order ON order_notifications (order_id);

-- The sandbox providers (dev, test, demo): one row per effect, deduplicated by key like a real provider,
-- and one row per call that arrived, repeats and failures included.
CREATE TABLE sandbox_effects (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind            VARCHAR(16)   NOT NULL,
    idempotency_key VARCHAR(255)  NOT NULL,
    order_id        UUID          NOT NULL,
    amount          NUMERIC(19,4),
    currency        CHAR(3),
    reference       VARCHAR(64)   NOT NULL,
    created_at      TIMESTAMPTZ   NOT NULL,
    CONSTRAINT uq_sandbox_effects_key UNIQUE (kind, idempotency_key)
);
CREATE INDEX ix_sandbox_effects_order ON sandbox_effects (order_id);

CREATE TABLE sandbox_calls (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind            VARCHAR(16)   NOT NULL,
    idempotency_key VARCHAR(255),
    order_id        UUID,
    status          INT           NOT NULL,
    at              TIMESTAMPTZ   NOT NULL,                       -- when the call arrived
    answered_at     TIMESTAMPTZ   NOT NULL
);
CREATE INDEX ix_sandbox_calls_order ON sandbox_calls (order_id, kind);
