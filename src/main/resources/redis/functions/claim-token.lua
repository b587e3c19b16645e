-- claim_token: consumes a one-time order token atomically: the first caller gets a lease on it,
-- later callers learn whether it is in use, already used (and for which payload) or unknown.
-- record: the token's record (hash); fingerprint: the request's; claim_id: this attempt's; lease: ms.
-- Returns {'claimed'}, {'in-use', ms left on the lease}, {'consumed', orderId, fingerprint, answer} or {'unknown'};
-- the answer (what the creation answered, JSON) is absent from records written before it was kept.
local function claim_token(record, fingerprint, claim_id, lease)
  local clock = redis.call('TIME')
  local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
  lease = tonumber(lease)
  local found = redis.call('HMGET', record, 'state', 'expiresAt', 'leaseUntil', 'orderId', 'fingerprint', 'answer')
  local state, expiresAt, leaseUntil = found[1], tonumber(found[2]), tonumber(found[3])
  if not state then
    return {'unknown'}
  end
  if state == 'consumed' then
    return {'consumed', found[4], found[5], found[6]}
  end
  if state == 'claimed' and leaseUntil > now then
    return {'in-use', leaseUntil - now}
  end
  -- Issued, or claimed by an attempt whose lease ran out (it crashed or hangs).
  -- Past its expiry a token is no longer handed out, even by a takeover.
  if expiresAt <= now then
    return {'unknown'}
  end
  redis.call('HSET', record, 'state', 'claimed', 'claimId', claim_id, 'fingerprint', fingerprint, 'leaseUntil', now + lease)
  -- The record must outlive the lease, or a retry could not see that the token is in use.
  if redis.call('PTTL', record) < lease then
    redis.call('PEXPIRE', record, lease)
  end
  return {'claimed'}
end
