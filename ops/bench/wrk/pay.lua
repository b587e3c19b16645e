-- POST /orders/{id}/pay, each order once (BENCH_INPUT: ids of created orders), each with its own
-- Idempotency-Key (required), paid by the sandbox provider at zero latency.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"
local ids

setup = common.setup
done = common.done

init = function()
  common.init()
  ids = common.my_lines()
end

request = function()
  sent = sent + 1
  local id = ids[sent]
  if not id then return common.nothing_left() end
  return wrk.format("POST", "/orders/" .. id .. "/pay", common.with_key(common.headers()), common.PAY_BODY)
end
