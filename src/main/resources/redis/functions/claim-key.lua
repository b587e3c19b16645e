-- claim_key: claims an Idempotency-Key for one request, atomically.
-- record: the key's record (hash); fingerprint: the request's; claim_id: this request's; lease, retention: ms;
-- version1: (optional) the version-1 fingerprint of the same request, also accepted in a record kept before the upgrade.
-- Returns {'claimed'}, {'taken-over'} (the previous holder's lease ran out), {'in-use', ms left on the lease},
-- {'mismatch', the record's fingerprint} (the key was used for another request) or {'replay', status, headers, body}.
local function claim_key(record, fingerprint, claim_id, lease, retention, version1)
  local clock = redis.call('TIME')
  local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
  lease = tonumber(lease)
  local found = redis.call('HMGET', record, 'state', 'fingerprint', 'leaseUntil', 'status', 'headers', 'body')
  if not found[1] then
    redis.call('HSET', record, 'state', 'running', 'fingerprint', fingerprint, 'claimId', claim_id, 'leaseUntil', now + lease)
    redis.call('PEXPIRE', record, retention)
    return {'claimed'}
  end
  if found[2] ~= fingerprint and found[2] ~= version1 then
    return {'mismatch', found[2]}
  end
  if found[1] == 'done' then
    return {'replay', found[4], found[5], found[6]}
  end
  local leaseUntil = tonumber(found[3])
  if leaseUntil > now then
    return {'in-use', leaseUntil - now}
  end
  -- The holder crashed or hangs: this request runs instead; the old holder can no longer finish.
  redis.call('HSET', record, 'claimId', claim_id, 'leaseUntil', now + lease)
  return {'taken-over'}
end
