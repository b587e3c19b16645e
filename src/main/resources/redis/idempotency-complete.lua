-- Stores the final answer of the request holding an Idempotency-Key; only the holder may. The fingerprint
-- is the answered request's: the holder's own, or that of the request PostgreSQL kept the key for.
-- KEYS[1] the key's record (hash)
-- ARGV[1] claim id, ARGV[2] status, ARGV[3] headers (JSON), ARGV[4] body, ARGV[5] how long to keep it (ms), ARGV[6] fingerprint
-- Returns 1 when stored, 0 when the claim was no longer this holder's.
if redis.call('HGET', KEYS[1], 'claimId') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[2], 'headers', ARGV[3], 'body', ARGV[4], 'fingerprint', ARGV[6])
redis.call('HDEL', KEYS[1], 'claimId', 'leaseUntil')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
