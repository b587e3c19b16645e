-- Idempotency-Keys and their final answers, kept for their retention whatever Redis forgets. A request
-- whose effect is written here writes its key's row in the same transaction, so the effect and the key
-- commit or roll back together; Redis is the fast path in front of this table (lease, in-flight 409,
-- replay cache) and is refilled from it on a miss.
CREATE TABLE idempotency_keys (
    scope_hash      BYTEA        NOT NULL,  -- SHA-256 of principal, method, path and key: 32 bytes, compared as bytes
    principal       VARCHAR(255) NOT NULL,
    method          VARCHAR(16)  NOT NULL,
    path            TEXT         NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,  -- the canonical, unquoted key
    fingerprint     CHAR(64)     NOT NULL,  -- SHA-256 of method, path and the canonical body, hex
    claim_id        UUID         NOT NULL,  -- the request that kept the answer: only it may write the row again
    status          SMALLINT     NOT NULL,
    headers         TEXT         NOT NULL,  -- Location, Content-Type, Cache-Control as a JSON object
    body            TEXT         NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL,
    kept_until      TIMESTAMPTZ  NOT NULL,
    CONSTRAINT pk_idempotency_keys PRIMARY KEY (scope_hash)
);

-- The purge deletes by age, oldest first, in small batches.
CREATE INDEX ix_idempotency_keys_kept_until ON idempotency_keys (kept_until);
