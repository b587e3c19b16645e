-- A payment row is one attempt at charging an order, sent to the provider under its own key
-- payment:{orderId}:{n}. A new attempt starts only after the previous one is certainly not charged
-- (declined, refused or voided at the provider), so an unknown outcome is always settled under the
-- key it was sent with.
ALTER TABLE payments
    ADD COLUMN attempt        INT,
    ADD COLUMN payment_method VARCHAR(64),
    ADD COLUMN claim_id       UUID,         -- fencing token: only the current holder may change the row
    ADD COLUMN sent_at        TIMESTAMPTZ,  -- last time the charge was sent; the processing horizon counts from it
    ADD COLUMN next_check_at  TIMESTAMPTZ;  -- when recovery asks the provider next about an unknown outcome

-- Rows from before attempts: their key stays payment:{orderId}, as the provider knows it.
UPDATE payments SET attempt = 1, payment_method = 'pm_card_visa', claim_id = gen_random_uuid(),
    sent_at = created_at, next_check_at = claimed_until;

ALTER TABLE payments
    ALTER COLUMN attempt SET NOT NULL,
    ALTER COLUMN payment_method SET NOT NULL,
    ALTER COLUMN claim_id SET NOT NULL,
    ADD CONSTRAINT uq_payments_order_attempt UNIQUE (order_id, attempt);

-- At most one attempt of an order is open at a time.
CREATE UNIQUE INDEX ux_payments_open ON payments (order_id) WHERE status = 'PROCESSING';
DROP INDEX ix_payments_unresolved;
CREATE INDEX ix_payments_unresolved ON payments (next_check_at) WHERE status = 'PROCESSING';

-- The sandbox provider keeps what it decided per key, like a real one: a charge is processing while
-- it runs, then succeeded, declined or voided; a refund names the charge it gives back.
ALTER TABLE sandbox_effects
    ADD COLUMN status           VARCHAR(16) NOT NULL DEFAULT 'succeeded',
    ADD COLUMN payment_method   VARCHAR(64),
    ADD COLUMN charge_reference VARCHAR(64),
    ADD COLUMN settles_by       TIMESTAMPTZ,  -- a charge still processing past this was abandoned: it never completes
    ADD CONSTRAINT ck_sandbox_effects_status CHECK (status IN ('processing', 'succeeded', 'declined', 'voided'));
CREATE INDEX ix_sandbox_effects_listing ON sandbox_effects (kind, created_at, id);
CREATE INDEX ix_sandbox_effects_charge ON sandbox_effects (charge_reference) WHERE charge_reference IS NOT NULL;

-- Reports of the reconciliation of provider charges with payments; the newest is shown to staff.
CREATE TABLE reconciliation_reports (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started_at  TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL,
    report      TEXT        NOT NULL   -- JSON, as GET /payments/reconciliation shows it
);
