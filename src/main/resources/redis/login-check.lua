-- Reads sign-in failure counters (one key per counter, all in one slot).
-- KEYS the counters (strings: failures within the window; each expires with its window)
-- Returns {failures, ms left in the window} for each key, in order; {0, 0} for a key that is not there.
local answer = {}
for i, key in ipairs(KEYS) do
  local failures = tonumber(redis.call('GET', key) or '0')
  local left = 0
  if failures > 0 then
    left = redis.call('PTTL', key)
    if left < 0 then
      -- A counter that lost its expiry would count forever: it starts its window again.
      redis.call('DEL', key)
      failures = 0
      left = 0
    end
  end
  answer[#answer + 1] = failures
  answer[#answer + 1] = left
end
return answer
