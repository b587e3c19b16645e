-- What became of each order token a customer used: the order it made, or the 410 it was refused with.
-- Creating an order and refusing its token insert the same key, so whichever commits first wins: a
-- token once refused can make no order, and a refusal that comes too late finds the order instead.
-- Keyed by customer as well: a token is looked up under its caller's own tag, so another customer's
-- attempt with it is refused and must not stop the owner's order. orders.token_hash stays UNIQUE,
-- so a token still makes one order at most across customers.
CREATE TABLE order_tokens (
    customer   VARCHAR(255) NOT NULL,
    token_hash CHAR(64)     NOT NULL,                         -- SHA-256 of the one-time order token, hex
    -- The order goes with its token row; a refusal has no order.
    order_id   UUID         REFERENCES orders (id) ON DELETE CASCADE,
    refused_at TIMESTAMPTZ,
    CONSTRAINT pk_order_tokens PRIMARY KEY (customer, token_hash),
    CONSTRAINT ck_order_tokens_outcome CHECK ((order_id IS NULL) <> (refused_at IS NULL))
);

-- Refusals are pruned by age; order rows are not in this index, so creating an order does not touch it.
CREATE INDEX ix_order_tokens_refused_at ON order_tokens (refused_at) WHERE refused_at IS NOT NULL;

INSERT INTO order_tokens (customer, token_hash, order_id)
SELECT customer, token_hash, id FROM orders;
