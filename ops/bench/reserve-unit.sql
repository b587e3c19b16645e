-- A flash sale's order also reserves its unit of the one product every order wants. run.sh runs this
-- after insert-order.sql in one transaction, in the service's order: the product's row stays locked
-- from the reservation to the commit.
UPDATE products SET reserved = reserved + 1, updated_at = now() WHERE sku = 'ABC-1' AND active AND on_hand - reserved >= 1;
