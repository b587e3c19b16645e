-- Frees an Idempotency-Key whose request ended without an answer worth keeping (400, 5xx, ...),
-- so that a retry runs again; only the holder may.
-- KEYS[1] the key's record (hash)
-- ARGV[1] claim id
-- Returns 1 when released, 0 when the claim was no longer this holder's.
if redis.call('HGET', KEYS[1], 'claimId') ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
