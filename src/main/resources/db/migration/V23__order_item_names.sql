-- Each order line keeps its product's name as it was when ordered: a later rename (or removal from sale)
-- does not change what an order says was bought. Lines written before this column get the product's
-- current name, the best left to know; a line a previous release writes during a rollout has none, and
-- is shown by its sku. Nullable so that release can still write lines (expand, then contract).
ALTER TABLE order_items ADD COLUMN name VARCHAR(200);
UPDATE order_items i SET name = p.name FROM products p WHERE p.sku = i.sku;
