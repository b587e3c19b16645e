-- Orders are the source of truth; Redis only speeds up and serialises token use.
CREATE SEQUENCE order_number_seq START WITH 100001;

CREATE TABLE orders (
    id                  UUID          PRIMARY KEY,              -- UUIDv7, time-ordered
    order_number        BIGINT        NOT NULL DEFAULT nextval('order_number_seq'),
    customer            VARCHAR(255)  NOT NULL,
    token_hash          CHAR(64)      NOT NULL,                 -- SHA-256 of the one-time order token, hex
    request_fingerprint CHAR(64)      NOT NULL,                 -- SHA-256 of the canonical order request
    status              VARCHAR(16)   NOT NULL,
    currency            CHAR(3)       NOT NULL,
    total_amount        NUMERIC(19,4) NOT NULL CHECK (total_amount > 0),
    version             BIGINT        NOT NULL DEFAULT 0,
    created_at          TIMESTAMPTZ   NOT NULL,
    updated_at          TIMESTAMPTZ   NOT NULL,
    CONSTRAINT uq_orders_order_number UNIQUE (order_number),
    -- One order per token, whatever Redis remembers.
    CONSTRAINT uq_orders_token_hash UNIQUE (token_hash),
    CONSTRAINT ck_orders_status CHECK (status IN ('created', 'paid', 'shipped', 'delivered', 'cancelled'))
);

CREATE INDEX ix_orders_customer_id ON orders (customer, id DESC);
CREATE INDEX ix_orders_status_id ON orders (status, id DESC);

CREATE TABLE order_items (
    order_id   UUID          NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line_no    INT           NOT NULL,
    sku        VARCHAR(64)   NOT NULL,
    quantity   INT           NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    unit_price NUMERIC(19,4) NOT NULL CHECK (unit_price > 0),
    PRIMARY KEY (order_id, line_no)
);

-- One row per applied transition.
CREATE TABLE order_history (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id    UUID         NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    from_status VARCHAR(16)  NOT NULL,
    to_status   VARCHAR(16)  NOT NULL,
    event       VARCHAR(16)  NOT NULL,
    at          TIMESTAMPTZ  NOT NULL,
    actor       VARCHAR(255) NOT NULL,
    command_id  VARCHAR(255),
    CONSTRAINT uq_order_history_event UNIQUE (order_id, event)
);
