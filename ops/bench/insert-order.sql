-- What storing one order costs PostgreSQL at least: the order row (with its UNIQUE token hash) and
-- its item, in one transaction, as the service does.
WITH stored AS (
    INSERT INTO orders (id, customer, token_hash, request_fingerprint, status, currency, total_amount, created_at, updated_at)
    VALUES (gen_random_uuid(), 'alice', md5(random()::text) || md5(random()::text), md5(random()::text) || md5(random()::text),
            'created', 'CNY', 25.00, now(), now())
    RETURNING id)
INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price) SELECT id, 0, 'ABC-1', 2, 12.50 FROM stored;
