-- An order keeps the address it is shipped to, as it was when ordered, and each customer the address
-- their last order named, for the orders that name none. Orders written before this column have none,
-- and so have orders a previous release writes during a rollout: nullable (expand, then contract).
-- Customers are users or bearer tokens' subjects, so the saved address is keyed by the name alone.
ALTER TABLE orders ADD COLUMN shipping_address JSONB;

CREATE TABLE customer_addresses (
    customer   VARCHAR(64) NOT NULL,
    address    JSONB       NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    CONSTRAINT pk_customer_addresses PRIMARY KEY (customer)
);

-- The sandbox's warehouse keeps the address each shipment was sent, for anyone to check (see V14).
DO $$
BEGIN
    IF ${sandbox} THEN
        ALTER TABLE sandbox_effects ADD COLUMN shipping_address JSONB;
    END IF;
END
$$;
