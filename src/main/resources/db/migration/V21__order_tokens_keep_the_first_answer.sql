-- The answer the creation of a token's order gave, as sent: a repeat of the creation after Redis lost
-- the token's record is answered with these bytes, as Redis would have answered it, never with the
-- order re-rendered by whichever version reads it. NULL for orders created before this column.
ALTER TABLE order_tokens ADD COLUMN answer TEXT;
