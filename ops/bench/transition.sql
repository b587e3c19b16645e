-- What one transition costs PostgreSQL at least: the guarded conditional UPDATE that moves an order
-- from created to paid, and its history row, in one statement and one transaction, as the service
-- does. Each transaction takes the next prepared order from transition_queue (run.sh fills it), so
-- every UPDATE finds its row; the scalar subqueries run once per statement, so both lookups use an index.
WITH moved AS (
    UPDATE orders SET status = 'paid', version = version + 1, updated_at = now()
    WHERE id = (SELECT id FROM transition_queue WHERE n = (SELECT nextval('transition_seq')))
      AND status IN ('created')
    RETURNING id)
INSERT INTO order_history (order_id, from_status, to_status, event, at, actor, command_id)
SELECT id, 'created', 'paid', 'pay', now(), 'alice', 'bench' FROM moved;
