-- What storing one order costs PostgreSQL at least: the order row (with its UNIQUE token hash) and
-- its item, in one statement and one transaction, as the service stores them. The id is time-ordered
-- like the service's UUIDv7 (the time in milliseconds, then random bits), so the index grows at its end.
WITH stored AS (
    INSERT INTO orders (id, customer, token_hash, request_fingerprint, status, currency, total_amount, created_at, updated_at)
    VALUES ((lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(random()::text), 1, 20))::uuid,
            'alice', md5(random()::text) || md5(random()::text), md5(random()::text) || md5(random()::text),
            'created', 'CNY', 12.50, now(), now())
    RETURNING id)
INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price) SELECT id, 0, 'ABC-1', 1, 12.50 FROM stored;
