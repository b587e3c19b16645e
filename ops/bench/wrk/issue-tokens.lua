-- Preparation, not a measurement: issues one-time order tokens with POST /orders/token, one a line
-- (see common.open_output).
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"

setup = common.setup
done = common.done

init = function()
  common.init()
  common.open_output()
end

request = function()
  return wrk.format("POST", "/orders/token", common.headers())
end

response = function(status, headers, body)
  local token = status == 201 and body:match('"token"%s*:%s*"([^"]+)"')
  if token then common.write_line(token) else common.count_unexpected(status) end
end
