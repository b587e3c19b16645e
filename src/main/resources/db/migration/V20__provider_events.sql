-- Provider event notifications received (webhooks), by the provider's event id: a notification sent
-- again (providers repeat them until answered 2xx, and may send one twice) finds its id here and does
-- nothing more. Purged by the retention job past orders.retention.max-age.provider-events.
CREATE TABLE provider_events (
    id          VARCHAR(255) PRIMARY KEY,
    type        VARCHAR(64)  NOT NULL,
    received_at TIMESTAMPTZ  NOT NULL
);
CREATE INDEX ix_provider_events_received ON provider_events (received_at);
