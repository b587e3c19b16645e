-- The catalog of the POST /orders phases: 100 products at the demo notebook's price, each with stock
-- for any run, so that orders spread over rows as a shop's do. The flash-sale phase orders ABC-1 only.
INSERT INTO products (sku, name, price, currency, active, on_hand)
SELECT 'BENCH-' || lpad(n::text, 3, '0'), 'Benchmark product ' || n, 12.50, 'CNY', true, 100000000
FROM generate_series(1, 100) AS n;
