-- A third role, metrics: an account for the monitoring system's scrapes of /q/metrics, which may read
-- the engine's figures and nothing else (no order, no page, no action).
ALTER TABLE users DROP CONSTRAINT ck_users_role;
ALTER TABLE users ADD CONSTRAINT ck_users_role CHECK (role IN ('customer', 'staff', 'metrics'));
