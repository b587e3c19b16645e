-- Counts a failed sign-in on each counter (all in one slot); a counter's first failure opens its
-- window, which then expires on its own.
-- KEYS the counters
-- ARGV[1] the window (ms)
-- Returns the failures counted in the first counter's window so far.
local first
for i, key in ipairs(KEYS) do
  local failures = redis.call('INCR', key)
  if failures == 1 or redis.call('PTTL', key) < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
  end
  first = first or failures
end
return first
