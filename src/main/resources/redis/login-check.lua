-- Reads a sign-in failure counter (one user's or one address's).
-- KEYS[1] the counter (string: failures within the window; expires with the window)
-- ARGV[1] the most failures allowed in a window
-- Returns {failures, ms until the window ends when the limit is reached, else 0}.
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures < tonumber(ARGV[1]) then
  return {failures, 0}
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  -- A counter that lost its expiry would refuse forever: it starts its window again.
  redis.call('DEL', KEYS[1])
  return {0, 0}
end
return {failures, left}
