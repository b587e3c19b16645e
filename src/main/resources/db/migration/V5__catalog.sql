-- The catalog: what can be ordered, at what price, and how many are on hand. Stock is changed only
-- by guarded conditional UPDATEs; the CHECKs hold whatever the code does: never negative, never
-- less on hand than is reserved for orders.
CREATE TABLE products (
    sku         VARCHAR(64)   PRIMARY KEY,                   -- [A-Za-z0-9._-]{1,64}, checked by the API
    name        VARCHAR(200)  NOT NULL,
    description VARCHAR(2000) NOT NULL DEFAULT '',
    price       NUMERIC(19,4) NOT NULL CHECK (price > 0),    -- exact in the currency's minor units
    currency    CHAR(3)       NOT NULL,
    active      BOOLEAN       NOT NULL,
    on_hand     INT           NOT NULL,
    reserved    INT           NOT NULL DEFAULT 0,            -- held for orders created and not yet shipped or cancelled
    version     BIGINT        NOT NULL DEFAULT 0,            -- grows by 1 with each change by staff (details, stock adjustment)
    created_at  TIMESTAMPTZ   NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ   NOT NULL DEFAULT now(),
    CONSTRAINT ck_products_stock CHECK (reserved >= 0 AND on_hand >= reserved)
);

-- One row per stock adjustment made by staff: who changed on hand, by how much, why, and to what.
CREATE TABLE stock_adjustments (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sku           VARCHAR(64)  NOT NULL REFERENCES products (sku),
    delta         INT          NOT NULL CHECK (delta <> 0),
    reason        VARCHAR(200) NOT NULL,
    actor         VARCHAR(255) NOT NULL,
    on_hand_after INT          NOT NULL,
    at            TIMESTAMPTZ  NOT NULL
);
CREATE INDEX ix_stock_adjustments_sku ON stock_adjustments (sku, id);

-- Whether the order holds a stock reservation: cancel releases it and ship turns it into a
-- decrement of on hand only then, so orders created before reservations existed are left alone.
ALTER TABLE orders ADD COLUMN stock_reserved BOOLEAN NOT NULL DEFAULT false;
