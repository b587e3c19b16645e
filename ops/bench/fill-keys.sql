-- Adds :rows live Idempotency-Keys to PostgreSQL's idempotency_keys, each a copy of an answer the
-- service kept for POST /orders in this run, with its scope and key replaced, so that the service's
-- own keys are looked up and written beside as many as Redis holds.
-- Usage: psql -v rows=1000000 -f fill-keys.sql (search_path set to the service's schema).
\set ON_ERROR_STOP on

CREATE TEMP TABLE template_key AS
    SELECT * FROM idempotency_keys WHERE path = '/orders' AND status = 201 LIMIT 1;

INSERT INTO idempotency_keys
SELECT copy.*
FROM template_key t,
     generate_series(1, :rows) g,
     LATERAL jsonb_populate_record(NULL::idempotency_keys, to_jsonb(t) || jsonb_build_object(
         'scope_hash', '\x' || encode(sha256(('fill-key-scope-' || g)::bytea), 'hex'),
         'idempotency_key', 'fill-key-' || g,
         'claim_id', gen_random_uuid())) copy;

-- This server runs with autovacuum off, so nothing else would give the planner the new size.
ANALYZE idempotency_keys;
