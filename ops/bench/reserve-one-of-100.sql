-- An order of one unit of one of the 100 products of products.sql, chosen at random as the POST /orders
-- phases spread theirs. run.sh runs this after insert-order.sql in one transaction, as the service
-- stores an order and reserves its stock together.
\set product random(1, 100)
UPDATE products SET reserved = reserved + 1, updated_at = now()
WHERE sku = 'BENCH-' || lpad(:product::text, 3, '0') AND active AND on_hand - reserved >= 1;
