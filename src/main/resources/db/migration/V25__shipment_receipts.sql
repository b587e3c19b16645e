-- The warehouse's reference for each order's shipment, kept when it accepts the request, so that the
-- order shows it. One per order: a repeated request (same key) gets the same answer, and the first is kept.
CREATE TABLE shipment_receipts (
    order_id    UUID         NOT NULL,
    reference   VARCHAR(255) NOT NULL,
    accepted_at TIMESTAMPTZ  NOT NULL,
    CONSTRAINT pk_shipment_receipts PRIMARY KEY (order_id)
);
