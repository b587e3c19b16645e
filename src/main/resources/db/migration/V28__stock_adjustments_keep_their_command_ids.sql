-- The staff console's stock form carries a one-time command id: a form submitted twice adjusts once. The API's
-- adjustments have none (a retry there carries its Idempotency-Key), so the index holds the console's only.
ALTER TABLE stock_adjustments ADD COLUMN command_id VARCHAR(255);
CREATE UNIQUE INDEX uq_stock_adjustments_command_id ON stock_adjustments (sku, command_id) WHERE command_id IS NOT NULL;
