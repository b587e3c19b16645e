-- The relay that took a message under a lease. Each attempt first renews the lease, and records its
-- outcome, only while the row still carries this id: a relay whose lease lapsed and was taken over
-- by another finds a different id (a fencing token) and neither attempts nor marks the message.
ALTER TABLE outbox ADD COLUMN lease_id UUID;

-- Why the last attempt failed, as staff see it: a stable code and a message, never a class name or SQL.
ALTER TABLE outbox ADD COLUMN last_error_code VARCHAR(64);
ALTER TABLE outbox RENAME COLUMN last_error TO last_error_message;

-- Rows written before held the exception's text: keep the provider's answer, hide everything else.
UPDATE outbox SET
    last_error_code = CASE
        WHEN last_error_message LIKE '%.DownstreamUnavailableException: %' THEN 'provider-unavailable'
        WHEN last_error_message LIKE '%.DownstreamRefusedException: %' THEN 'provider-refused'
        ELSE 'delivery-failed' END,
    last_error_message = CASE
        WHEN last_error_message LIKE '%.Downstream%Exception: %' THEN substring(last_error_message FROM ': (.*)$')
        ELSE 'The delivery failed; the service log has the details.' END
WHERE last_error_message IS NOT NULL;
