-- Counts a failed sign-in; the first failure opens the window, which then expires on its own.
-- KEYS[1] the counter (one user's or one address's)
-- ARGV[1] the window (ms)
-- Returns the failures counted in the window so far.
local failures = redis.call('INCR', KEYS[1])
if failures == 1 or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return failures
