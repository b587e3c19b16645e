-- Gives a claimed token back after its request failed, so the client can use it again;
-- only the claim's holder may do so.
-- KEYS[1] the token's record (hash)
-- ARGV[1] claim id
-- Returns 1 when released, 0 when the claim was no longer this holder's.
if redis.call('HGET', KEYS[1], 'claimId') ~= ARGV[1] then
  return 0
end
local expiresAt = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
redis.call('HSET', KEYS[1], 'state', 'issued')
redis.call('HDEL', KEYS[1], 'claimId', 'fingerprint', 'leaseUntil')
redis.call('PEXPIREAT', KEYS[1], expiresAt)
return 1
