-- Claims an Idempotency-Key for one request, atomically (claim_key, from functions/claim-key.lua).
-- KEYS[1] the key's record (hash)
-- ARGV[1] request fingerprint, ARGV[2] claim id of this request, ARGV[3] lease (ms), ARGV[4] retention (ms),
-- ARGV[5] (optional) the version-1 fingerprint of the same request, also accepted in a record kept before the upgrade
return claim_key(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
