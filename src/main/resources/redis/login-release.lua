-- Gives back one reservation (login-reserve.lua, login-count.lua) on each counter, all in one slot:
-- a sign-in whose password was right, or could not be checked, is no failure. A counter never goes
-- below zero, and keeps its window.
-- KEYS the counters
-- ARGV[1] '1' to delete the first counter instead: the pair starts afresh after a right password
-- Returns 1.
for i, key in ipairs(KEYS) do
  if i == 1 and ARGV[1] == '1' then
    redis.call('DEL', key)
  elseif tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 1
