-- How often the firing of an order's deadline has failed since it last came due for the first time.
-- Each failure puts the deadline off twice as long as the one before (orders.deadlines.retry-failed-after,
-- doubling up to orders.deadlines.retry-failed-at-most), so an order that cannot fire is tried less and
-- less often instead of once a minute forever. Shipping starts the delivery deadline afresh at 0.
ALTER TABLE orders ADD COLUMN deadline_failures INTEGER NOT NULL DEFAULT 0;
