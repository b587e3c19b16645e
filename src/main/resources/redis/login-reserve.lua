-- Reserves a sign-in attempt against its address's counters before its password is checked, in one
-- step, so that a burst of guesses gets no more checks than the limits allow, however many run at once.
-- A counter holds the failures and the attempts in flight; each attempt in flight is also a member of
-- its counter's set of checks in flight, scored by when it was reserved. A right password, or a check
-- that could not be made, gives the reservation back (login-release.lua); a wrong one keeps it as its
-- failure and leaves the set (login-release.lua too). An attempt whose instance died mid-check is
-- dropped from the set after the longest check: its reservation then counts as a failure. A limit that
-- only checks in flight fill is not a refusal: they end within moments, so the caller asks again. A
-- counter's first reservation opens its window, which then expires on its own.
-- KEYS[1] the (user, address) counter, KEYS[2] the address's counter (one slot: the address's),
-- KEYS[3] the address's checks in the current second once it is past its own limit,
-- KEYS[4] and KEYS[5] the checks in flight of the (user, address) and of the address
-- ARGV[1] the window (ms), ARGV[2] the limit per user and address, ARGV[3] the limit per address,
-- ARGV[4] the checks per second an address past its limit still gets for names it has not failed for,
-- ARGV[5] this attempt's id, ARGV[6] the longest a check takes (ms)
-- Returns {0, the pair's failures before this attempt} when reserved, or {1, ms until it may try
-- again, by} when refused; by: 1 the user and address, 2 the address, 3 the address's rate past its
-- limit, 4 checks in flight alone fill a limit (ask again shortly).
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local function counted(key)
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 and redis.call('PTTL', key) < 0 then
    -- A counter that lost its expiry would count forever: it starts its window again.
    redis.call('DEL', key)
    return 0
  end
  return n
end

local function inFlight(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - tonumber(ARGV[6]))
  return redis.call('ZCARD', key)
end

local pair = counted(KEYS[1])
local pairFailed = math.max(0, pair - inFlight(KEYS[4]))
if pairFailed >= tonumber(ARGV[2]) then
  return {1, redis.call('PTTL', KEYS[1]), 1}
end
local address = counted(KEYS[2])
local addressFailed = math.max(0, address - inFlight(KEYS[5]))
if addressFailed >= tonumber(ARGV[3]) then
  if pairFailed > 0 then
    return {1, math.min(redis.call('PTTL', KEYS[1]), redis.call('PTTL', KEYS[2])), 2}
  end
  if pair >= tonumber(ARGV[2]) then
    return {1, 0, 4}
  end
  local checks = redis.call('INCR', KEYS[3])
  if checks == 1 then
    redis.call('PEXPIRE', KEYS[3], 1000)
  end
  if checks > tonumber(ARGV[4]) then
    return {1, redis.call('PTTL', KEYS[3]), 3}
  end
elseif pair >= tonumber(ARGV[2]) or address >= tonumber(ARGV[3]) then
  return {1, 0, 4}
end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
  end
  redis.call('ZADD', KEYS[i + 3], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[i + 3], ARGV[6])
end
return {0, pairFailed}
