-- Keys are written in the order of their kept_until (now + retention), so a block-range index finds the
-- expired ones for the purge as well as a B-tree does, while every insert no longer adds an entry to the
-- B-tree's last page, which all concurrent requests with a key were writing to.
DROP INDEX ix_idempotency_keys_kept_until;
CREATE INDEX ix_idempotency_keys_kept_until ON idempotency_keys USING brin (kept_until);
