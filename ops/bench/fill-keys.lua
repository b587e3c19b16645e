-- Adds live Idempotency-Key records by copying one the service stored (its fields and remaining
-- lifetime) to ARGV[3] new keys named ARGV[1] .. <64 hex digits>, numbered from ARGV[2]: the same
-- shape as the service's own names (a hash of the key) under the same prefix and hash tag.
-- run.sh calls it in chunks, so the shared Redis is never blocked for long.
-- KEYS[1] the record to copy
local fields = redis.call('HGETALL', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
local first, count = tonumber(ARGV[2]), tonumber(ARGV[3])
for n = first, first + count - 1 do
  local key = ARGV[1] .. string.format('%064x', n)
  redis.call('HSET', key, unpack(fields))
  redis.call('PEXPIRE', key, ttl)
end
return count
