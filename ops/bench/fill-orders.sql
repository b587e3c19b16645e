-- Adds :rows orders with their items to the current schema, as if placed over the last 60 days and
-- since delivered (so no deadline, reservation or delivery is pending for them). Each row is a copy
-- of an order and its item that the service itself stored in this run, with identity, customer and
-- times replaced, so any column the service adds later keeps a value the service gave it.
-- Ids are time-ordered like the service's UUIDv7; token hashes and fingerprints are distinct 64-hex
-- strings; order numbers start at 900,000,001, far above the service's own sequence.
-- Usage: psql -v rows=1000000 -f fill-orders.sql (search_path set to the service's schema).
\set ON_ERROR_STOP on

CREATE TEMP TABLE template_order AS
    SELECT * FROM orders WHERE customer = 'alice' ORDER BY id LIMIT 1;
CREATE TEMP TABLE template_items AS
    SELECT * FROM order_items WHERE order_id = (SELECT id FROM template_order);

-- (LATERAL: written as (f(...)).* PostgreSQL would call f once per column.)
INSERT INTO orders
SELECT copy.*
FROM template_order t,
     generate_series(1, :rows) g,
     LATERAL (SELECT now() - interval '60 days' + g * (interval '59 days' / :rows) AS at) placed,
     LATERAL jsonb_populate_record(NULL::orders, to_jsonb(t) || jsonb_build_object(
         'id', (lpad(to_hex((extract(epoch FROM placed.at) * 1000)::bigint), 12, '0')
                || '7' || substr(md5(g::text), 1, 3) || '8' || substr(md5(g::text), 4, 15))::uuid,
         'order_number', 900000000 + g,
         -- one in ten is alice's, the rest spread over 20,000 other customers
         'customer', CASE WHEN g % 10 = 0 THEN 'alice' ELSE 'customer-' || g % 20000 END,
         'token_hash', encode(sha256(('fill-token-' || g)::bytea), 'hex'),
         'request_fingerprint', encode(sha256(('fill-request-' || g)::bytea), 'hex'),
         'status', 'delivered',
         'version', 3,
         'stock_reserved', false,
         'created_at', placed.at,
         'updated_at', placed.at)) copy;

INSERT INTO order_items
SELECT copy.*
FROM template_items i
JOIN orders o ON o.order_number > 900000000,
     LATERAL jsonb_populate_record(NULL::order_items, to_jsonb(i) || jsonb_build_object('order_id', o.id)) copy;

-- This server runs with autovacuum off, so nothing else would give the planner the new sizes.
ANALYZE orders;
ANALYZE order_items;
