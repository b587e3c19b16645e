-- A user the operator disables (disable-user) signs in no more, by password, session or bearer token, but
-- stays: the name owns orders and tokens, and no one else may take it. Expand-only: a release before this
-- one reads the table as before (and still lets a disabled user in until it is replaced).
ALTER TABLE users ADD COLUMN disabled_at TIMESTAMPTZ;
