-- Claims an Idempotency-Key for one request, atomically.
-- KEYS[1] the key's record (hash)
-- ARGV[1] request fingerprint, ARGV[2] claim id of this request, ARGV[3] lease (ms), ARGV[4] retention (ms),
-- ARGV[5] (optional) the version-1 fingerprint of the same request, also accepted in a record kept before the upgrade
-- Returns {'claimed'}, {'taken-over'} (the previous holder's lease ran out), {'in-use', ms left on the lease},
-- {'mismatch', the record's fingerprint} (the key was used for another request) or {'replay', status, headers, body}.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local lease = tonumber(ARGV[3])

local record = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'leaseUntil', 'status', 'headers', 'body')
if not record[1] then
  redis.call('HSET', KEYS[1], 'state', 'running', 'fingerprint', ARGV[1], 'claimId', ARGV[2], 'leaseUntil', now + lease)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'claimed'}
end
if record[2] ~= ARGV[1] and record[2] ~= ARGV[5] then
  return {'mismatch', record[2]}
end
if record[1] == 'done' then
  return {'replay', record[4], record[5], record[6]}
end
local leaseUntil = tonumber(record[3])
if leaseUntil > now then
  return {'in-use', leaseUntil - now}
end
-- The holder crashed or hangs: this request runs instead; the old holder can no longer finish.
redis.call('HSET', KEYS[1], 'claimId', ARGV[2], 'leaseUntil', now + lease)
return {'taken-over'}
