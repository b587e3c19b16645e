-- Takes a quantity from a product's counter of available stock, a hint kept in front of PostgreSQL.
-- KEYS[1] the counter; ARGV[1] the quantity.
-- Returns -1 when there is no counter (ask PostgreSQL), the counter's value when it is short (nothing
-- taken), or -2 when the quantity was taken.
local available = redis.call('GET', KEYS[1])
if not available then
  return -1
end
available = tonumber(available)
if available < tonumber(ARGV[1]) then
  return available
end
redis.call('DECRBY', KEYS[1], ARGV[1])
return -2
