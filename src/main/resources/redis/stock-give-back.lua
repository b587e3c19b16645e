-- Gives a quantity back to a product's counter of available stock, if the counter still exists (an
-- expired one is refilled from PostgreSQL by the next order instead).
-- KEYS[1] the counter; ARGV[1] the quantity.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('INCRBY', KEYS[1], ARGV[1])
end
return 0
