-- Consumes a one-time order token atomically: the first caller gets a lease on it,
-- later callers learn whether it is in use, already used (and for which payload) or unknown.
-- KEYS[1] the token's record (hash)
-- ARGV[1] fingerprint of the request, ARGV[2] claim id of this attempt, ARGV[3] lease (ms)
-- Returns {'claimed'}, {'in-use', ms left on the lease}, {'consumed', orderId, fingerprint, answer} or {'unknown'};
-- the answer (what the creation answered, JSON) is absent from records written before it was kept.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local lease = tonumber(ARGV[3])

local record = redis.call('HMGET', KEYS[1], 'state', 'expiresAt', 'leaseUntil', 'orderId', 'fingerprint', 'answer')
local state, expiresAt, leaseUntil = record[1], tonumber(record[2]), tonumber(record[3])

if not state then
  return {'unknown'}
end
if state == 'consumed' then
  return {'consumed', record[4], record[5], record[6]}
end
if state == 'claimed' and leaseUntil > now then
  return {'in-use', leaseUntil - now}
end
-- Issued, or claimed by an attempt whose lease ran out (it crashed or hangs).
-- Past its expiry a token is no longer handed out, even by a takeover.
if expiresAt <= now then
  return {'unknown'}
end
redis.call('HSET', KEYS[1], 'state', 'claimed', 'claimId', ARGV[2], 'fingerprint', ARGV[1], 'leaseUntil', now + lease)
-- The record must outlive the lease, or a retry could not see that the token is in use.
if redis.call('PTTL', KEYS[1]) < lease then
  redis.call('PEXPIRE', KEYS[1], lease)
end
return {'claimed'}
