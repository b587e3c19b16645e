-- Records the order a claimed token produced; only the claim's holder may do so.
-- KEYS[1] the token's record (hash), KEYS[2] the customer's outstanding tokens (sorted set)
-- ARGV[1] claim id, ARGV[2] order id, ARGV[3] the order's request fingerprint,
-- ARGV[4] how long to remember the outcome (ms), ARGV[5] token hash, ARGV[6] the answer to replay (JSON)
-- Returns 1 when recorded, 0 when the claim was no longer this holder's.
if redis.call('HGET', KEYS[1], 'claimId') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'consumed', 'orderId', ARGV[2], 'fingerprint', ARGV[3], 'answer', ARGV[6])
redis.call('HDEL', KEYS[1], 'claimId', 'leaseUntil')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[5])
return 1
