-- Consumes a one-time order token atomically (claim_token, from functions/claim-token.lua).
-- KEYS[1] the token's record (hash)
-- ARGV[1] fingerprint of the request, ARGV[2] claim id of this attempt, ARGV[3] lease (ms)
return claim_token(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
