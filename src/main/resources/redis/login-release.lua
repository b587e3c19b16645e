-- Gives back one reservation (login-reserve.lua, login-count.lua) on each counter, all in one slot:
-- a sign-in whose password was right, or could not be checked, is no failure. Each counter may be
-- followed by its set of checks in flight, which the attempt leaves. A counter never goes below zero,
-- and keeps its window.
-- KEYS counters, each followed by its set of checks in flight where it has one (the user's has none,
-- and comes alone)
-- ARGV[1] '1' to start the first counter afresh: after a right password it holds only the checks
-- still in flight, ARGV[2] the attempt's id
-- Returns 1.
for i = 1, #KEYS, 2 do
  local counter, flight = KEYS[i], KEYS[i + 1]
  if flight then
    redis.call('ZREM', flight, ARGV[2])
  end
  if i == 1 and ARGV[1] == '1' then
    local still = flight and redis.call('ZCARD', flight) or 0
    if still > 0 then
      redis.call('SET', counter, still, 'KEEPTTL')
    else
      redis.call('DEL', counter)
    end
  elseif tonumber(redis.call('GET', counter) or '0') > 0 then
    redis.call('DECR', counter)
  end
end
return 1
