-- Refunds and order events are no longer given up after orders.outbox.max-attempts: money owed to a
-- customer is refunded and an order event published however long the outage. Those dead-lettered
-- before go back in line, due now; their attempts are kept, so further failures wait the longest
-- delay (orders.outbox.max-delay) between attempts. Shipments stay dead letters for staff to retry.
UPDATE outbox SET status = 'PENDING', next_attempt_at = now(), lease_id = NULL
WHERE status = 'DEAD' AND kind IN ('refund', 'order-event');
