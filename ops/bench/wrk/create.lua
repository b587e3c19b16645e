-- POST /orders, each with a fresh one-time order token issued before the phase (BENCH_INPUT),
-- with an Idempotency-Key of its own when BENCH_KEYS is set, for the products of common.order_body.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"
local tokens

setup = common.setup
done = common.done

init = function()
  common.init()
  tokens = common.my_lines()
end

request = function()
  sent = sent + 1
  local token = tokens[sent]
  if not token then return common.nothing_left() end
  return wrk.format("POST", "/orders", common.with_key(common.headers({ ["Order-Token"] = token })), common.order_body(sent))
end
