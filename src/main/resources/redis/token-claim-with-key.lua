-- Claims the request's Idempotency-Key and, when it claimed the key afresh, its order token: one round
-- trip for both (claim_key and claim_token, from functions/). Both records are under the customer's hash tag.
-- KEYS[1] the token's record, KEYS[2] the key's record
-- ARGV[1..3] as token-claim.lua; ARGV[4] request fingerprint, ARGV[5] claim id, ARGV[6] lease (ms), ARGV[7] retention (ms)
-- Returns {key's answer} (see idempotency-claim.lua) when the key was not claimed afresh, else {{'claimed'}, token's answer}.
local key = claim_key(KEYS[2], ARGV[4], ARGV[5], ARGV[6], ARGV[7], nil)
if key[1] ~= 'claimed' then
  return {key}
end
return {key, claim_token(KEYS[1], ARGV[1], ARGV[2], ARGV[3])}
