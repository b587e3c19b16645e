-- Reserves a sign-in attempt against its address's counters before its password is checked, in one
-- step, so that a burst of guesses gets no more checks than the limits allow, however many run at once.
-- A right password, or a check that could not be made, gives the reservation back (login-release.lua);
-- a wrong one keeps it as its failure. A counter's first reservation opens its window, which then
-- expires on its own.
-- KEYS[1] the (user, address) counter, KEYS[2] the address's counter (one slot: the address's),
-- KEYS[3] the address's checks in the current second once it is past its own limit
-- ARGV[1] the window (ms), ARGV[2] the limit per user and address, ARGV[3] the limit per address,
-- ARGV[4] the checks per second an address past its limit still gets for names it has not failed for
-- Returns {0, the pair's failures before this attempt} when reserved, or {1, ms until it may try
-- again, by} when refused; by: 1 the user and address, 2 the address, 3 the address's rate past its limit.
local function failures(key)
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 and redis.call('PTTL', key) < 0 then
    -- A counter that lost its expiry would count forever: it starts its window again.
    redis.call('DEL', key)
    return 0
  end
  return n
end

local pair = failures(KEYS[1])
if pair >= tonumber(ARGV[2]) then
  return {1, redis.call('PTTL', KEYS[1]), 1}
end
local address = failures(KEYS[2])
if address >= tonumber(ARGV[3]) then
  if pair > 0 then
    return {1, math.min(redis.call('PTTL', KEYS[1]), redis.call('PTTL', KEYS[2])), 2}
  end
  local checks = redis.call('INCR', KEYS[3])
  if checks == 1 then
    redis.call('PEXPIRE', KEYS[3], 1000)
  end
  if checks > tonumber(ARGV[4]) then
    return {1, redis.call('PTTL', KEYS[3]), 3}
  end
end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
  end
end
return {0, pair}
