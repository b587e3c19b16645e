-- A client's retry of POST /orders: the same token and body as an order already placed (BENCH_INPUT:
-- "token orderId" lines), over and over. Each answer must be 201 with Idempotent-Replayed: true.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"
local requests = {}

setup = common.setup
done = common.done

init = function()
  common.init()
  for _, line in ipairs(common.my_lines()) do
    local token = line:match("^(%S+)")
    requests[#requests + 1] = wrk.format("POST", "/orders", common.headers({ ["Order-Token"] = token }), common.ORDER_BODY)
  end
end

request = common.cycle(requests)

response = function(status, headers, body)
  if status >= 300 then
    common.note_status(status)
  elseif status ~= 201 or headers["Idempotent-Replayed"] ~= "true" then
    common.count_unexpected(status)
  end
end
