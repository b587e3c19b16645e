-- Staff find orders by when they were placed (GET /orders?createdFrom=&createdTo=). Without an index a range in the
-- past is read from the newest order back to its end. With this one PostgreSQL reads a range's orders and sorts them
-- newest first (a block-range index, as V15's, was not chosen over reading from the newest order back). Customer,
-- state and number have theirs (V1).
CREATE INDEX ix_orders_created_at ON orders (created_at);
