-- A wrong password keeps its reservation (login-reserve.lua) as its failure: the attempt only leaves
-- the sets of checks in flight, all in one slot.
-- KEYS the sets of checks in flight
-- ARGV[1] the attempt's id
-- Returns 1.
for _, key in ipairs(KEYS) do
  redis.call('ZREM', key, ARGV[1])
end
return 1
