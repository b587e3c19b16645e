-- Preparation, not a measurement: places orders, token then order, and writes "token orderId" lines
-- (see common.open_output) for the replay and GET phases. Run with one connection per thread, so
-- that each answer belongs to the thread's one request in flight and a token pairs with its order.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"
local token

setup = common.setup
done = common.done

init = function()
  common.init()
  common.open_output()
end

request = function()
  if token then
    return wrk.format("POST", "/orders", common.headers({ ["Order-Token"] = token }), common.ORDER_BODY)
  end
  return wrk.format("POST", "/orders/token", common.headers())
end

response = function(status, headers, body)
  if status ~= 201 then
    common.count_unexpected(status)
    token = nil
  elseif token then
    common.write_line(token .. " " .. body:match('"id"%s*:%s*"([^"]+)"'))
    token = nil
  else
    token = body:match('"token"%s*:%s*"([^"]+)"')
  end
end
