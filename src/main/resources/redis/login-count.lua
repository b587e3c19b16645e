-- Counts a sign-in attempt on each counter (all in one slot) before its password is checked; a right
-- password gives it back (login-release.lua). A counter's first count opens its window, which then
-- expires on its own.
-- KEYS the counters
-- ARGV[1] the window (ms)
-- Returns the attempts counted in the first counter's window so far, this one included.
local first
for i, key in ipairs(KEYS) do
  local attempts = redis.call('INCR', key)
  if attempts == 1 or redis.call('PTTL', key) < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
  end
  first = first or attempts
end
return first
