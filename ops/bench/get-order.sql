-- What one GET /orders/{id} costs PostgreSQL at least: the order with its items and its history, in one
-- statement and no transaction, as the service reads it (run.sh runs it prepared, as pgjdbc prepares
-- the service's on the server); one of 500 orders at random from read_queue, which run.sh fills with
-- orders of one item and one history row.
\set n random(1, 500)
SELECT o.*, i.*, h.* FROM orders o LEFT JOIN order_items i ON i.order_id = o.id LEFT JOIN order_history h ON h.order_id = o.id
WHERE o.id = (SELECT id FROM read_queue WHERE n = :n);
