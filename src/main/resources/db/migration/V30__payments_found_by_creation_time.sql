-- The console's health page (/console/health) counts the last hour's payments by their outcome, minute by minute.
-- Payments reach the table in about the order of created_at, so a block-range index (as V15's) finds the hour's rows
-- as well as a B-tree would, costs the inserts next to nothing, and builds in one pass.
CREATE INDEX ix_payments_created_at ON payments USING brin (created_at);
