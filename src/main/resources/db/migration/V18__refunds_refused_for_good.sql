-- A message its receiver refused for good (a refund the provider will never make: already refunded by
-- hand, charge too old) leaves the line as REFUSED, with the refusal as its last error, and waits for
-- staff. Older releases read only PENDING and DEAD rows, so they pass these by.
ALTER TABLE outbox DROP CONSTRAINT ck_outbox_status;
ALTER TABLE outbox ADD CONSTRAINT ck_outbox_status CHECK (status IN ('PENDING', 'DEAD', 'REFUSED'));
CREATE INDEX ix_outbox_refused ON outbox (kind, id) WHERE status = 'REFUSED';

-- What staff decided about each refused refund: given back outside the engine, or tried again. A record
-- of money: never purged.
CREATE TABLE refund_settlements (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    outbox_id       BIGINT        NOT NULL,                       -- the refund's message, in outbox or outbox_delivered
    order_id        UUID          NOT NULL,
    refund_key      VARCHAR(255)  NOT NULL,
    resolution      VARCHAR(32)   NOT NULL,
    refusal         VARCHAR(1000),                                -- the provider's refusal staff settled
    note            VARCHAR(1000),
    settled_by      VARCHAR(255)  NOT NULL,
    settled_at      TIMESTAMPTZ   NOT NULL,
    CONSTRAINT ck_refund_settlements_resolution CHECK (resolution IN ('refunded-outside', 'retry'))
);
CREATE INDEX ix_refund_settlements_outbox ON refund_settlements (outbox_id);
