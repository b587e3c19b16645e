-- The W3C traceparent of the request (or other traced work) whose transaction wrote the message, so that
-- its delivery, and an order event's consumer, continue that trace. NULL when no trace was recorded, and
-- for the messages written before this column.
ALTER TABLE outbox ADD COLUMN trace_parent TEXT;
ALTER TABLE outbox_delivered ADD COLUMN trace_parent TEXT;
