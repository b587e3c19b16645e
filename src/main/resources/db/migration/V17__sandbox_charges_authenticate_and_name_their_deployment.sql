-- The sandbox provider, like a real one, keeps a charge waiting for its customer's authentication
-- (3-D Secure: requires_action, and where to send the customer back), and the metadata naming the
-- deployment that made it, which reconciliation reads. Only where the sandbox runs (see V14).
DO $$
BEGIN
    IF ${sandbox} THEN
        ALTER TABLE sandbox_effects
            ADD COLUMN deployment VARCHAR(64),
            ADD COLUMN return_url VARCHAR(1000),
            DROP CONSTRAINT ck_sandbox_effects_status,
            ADD CONSTRAINT ck_sandbox_effects_status CHECK (status IN ('processing', 'requires_action', 'succeeded', 'declined', 'voided'));
        CREATE UNIQUE INDEX ux_sandbox_effects_reference ON sandbox_effects (reference);
    END IF;
END
$$;
