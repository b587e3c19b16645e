-- Durable timers: each order carries the deadlines of the states it is in, set by the transaction that
-- moved it there. pay_by: a created order not paid by then expires. deliver_by: a shipped order not
-- delivered by then is confirmed delivered. Both are kept once the order moves on, as its record.
ALTER TABLE orders ADD COLUMN pay_by TIMESTAMPTZ;
ALTER TABLE orders ADD COLUMN deliver_by TIMESTAMPTZ;

-- Orders from before deadlines existed get theirs from now on, as if just created or shipped.
UPDATE orders SET pay_by = now() + interval '30 minutes' WHERE status = 'created';
UPDATE orders SET deliver_by = now() + interval '14 days' WHERE status = 'shipped';

-- The firing claims due orders in deadline order from these; each holds only the orders still in the
-- deadline's state, so it stays as small as the open work, however many orders have moved on.
CREATE INDEX ix_orders_pay_by_created ON orders (pay_by) WHERE status = 'created';
CREATE INDEX ix_orders_deliver_by_shipped ON orders (deliver_by) WHERE status = 'shipped';
