-- GET /orders/{id} of orders already placed (BENCH_INPUT: "token orderId" lines), over and over.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"
local requests = {}

setup = common.setup
done = common.done

init = function()
  common.init()
  for _, line in ipairs(common.my_lines()) do
    requests[#requests + 1] = wrk.format("GET", "/orders/" .. line:match("(%S+)$"), common.headers())
  end
end

request = common.cycle(requests)
