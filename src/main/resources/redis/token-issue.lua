-- Issues a one-time order token unless the customer already holds too many.
-- KEYS[1] the customer's outstanding tokens (sorted set: token hash -> expiry, ms)
-- KEYS[2] the new token's record (hash)
-- ARGV[1] token hash, ARGV[2] time to live (ms), ARGV[3] cap of outstanding tokens
-- Returns {'issued', expiresAt} or {'capped', ms until the oldest outstanding token expires}.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local ttl = tonumber(ARGV[2])

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {'capped', tonumber(oldest[2]) - now}
end

local expiresAt = now + ttl
redis.call('HSET', KEYS[2], 'state', 'issued', 'expiresAt', expiresAt)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[1], expiresAt, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return {'issued', expiresAt}
