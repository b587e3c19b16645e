-- What one pay costs PostgreSQL at least, in the two transactions the service runs it in: the order's
-- read and its payment attempt claimed (each alone, autocommitted), then, once the provider has charged,
-- one transaction with the charge recorded, the guarded transition with its history row and its outbox
-- event in one statement (OrderTransitions.MOVE), and the Idempotency-Key's answer kept
-- (IdempotencyRecords.KEEP). Each pay takes the next created order from transition_queue (run.sh fills
-- it), as transition.sql does; past its end the read finds no order (found = 0) and the pay writes
-- nothing, so that pgbench goes on and run.sh counts those turns from transition_seq. Payload and
-- answer have the length of the service's own (an order event of 181 characters, a kept answer of 550
-- with headers of 49).
SELECT o.id AS order_id, o.customer, o.status, o.total_amount AS amount, o.currency, (o.id IS NOT NULL)::int AS found
FROM (SELECT 1) AS one
LEFT JOIN orders o ON o.id = (SELECT id FROM transition_queue WHERE n = (SELECT nextval('transition_seq'))) \gset
\if :found
INSERT INTO payments (idempotency_key, order_id, attempt, amount, currency, payment_method, status, channel,
    claim_id, claimed_until, sent_at, next_check_at, created_at, updated_at)
VALUES ('payment:' || ':order_id' || ':1', ':order_id', 1, :amount, ':currency', 'pm_card_visa', 'PROCESSING', 'sandbox',
    gen_random_uuid(), now() + interval '30 seconds', now(), now() + interval '30 seconds', now(), now())
ON CONFLICT DO NOTHING
RETURNING id AS payment_id, claim_id \gset
BEGIN;
UPDATE payments SET status = 'SUCCESS', claimed_until = NULL, next_check_at = NULL, channel_transaction_id = 'ch_' || md5(random()::text),
    updated_at = now()
WHERE id = :payment_id AND claim_id = ':claim_id' AND status = 'PROCESSING';
WITH moved AS (
    UPDATE orders SET status = 'paid', version = version + 1, updated_at = now(), deadline_failures = 0
    WHERE id = ':order_id' AND status IN ('created')
        AND EXISTS (SELECT 1 FROM payments WHERE payments.order_id = orders.id AND payments.status = 'SUCCESS')
    RETURNING id),
history AS (
    INSERT INTO order_history (order_id, from_status, to_status, event, at, actor, command_id)
    SELECT id, 'created', 'paid', 'pay', now(), ':customer', 'pay-' || id FROM moved),
events AS (
    INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
    SELECT 'order-event', id, 'event:' || gen_random_uuid(), rpad('{"type":"paid","orderId":"' || id || '"', 180, ' ') || '}',
        'PENDING', 0, now(), now(), NULL
    FROM moved)
SELECT id FROM moved;
INSERT INTO idempotency_keys (scope_hash, principal, method, path, idempotency_key, fingerprint, claim_id, status, headers,
    body, created_at, kept_until)
VALUES (sha256(convert_to(':customer POST /orders/' || ':order_id' || '/pay', 'UTF8')), ':customer', 'POST', '/orders/' || ':order_id' || '/pay',
    'pay-' || ':order_id', md5(':order_id') || md5(':order_id'), gen_random_uuid(), 200, rpad('{"Content-Type":"application/json"}', 49, ' '),
    rpad('{"id":"' || ':order_id' || '","status":"paid"', 549, ' ') || '}', now(), now() + interval '24 hours')
ON CONFLICT (scope_hash) DO UPDATE SET fingerprint = excluded.fingerprint, claim_id = excluded.claim_id, status = excluded.status,
    headers = excluded.headers, body = excluded.body, created_at = excluded.created_at, kept_until = excluded.kept_until
WHERE idempotency_keys.kept_until <= excluded.created_at OR idempotency_keys.claim_id = excluded.claim_id;
COMMIT;
\endif
