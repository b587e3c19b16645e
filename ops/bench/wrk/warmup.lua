-- Warm-up, shared by every phase: each thread cycles through all the code paths the phases measure
-- (token, order with and without an Idempotency-Key, replay, GET, pay), so the JIT has compiled them
-- all before any figure is taken. It feeds itself: tokens from its own POST /orders/token answers,
-- orders to read and pay from its own POST /orders answers.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"

local steps = { "token", "create", "token", "create-key", "replay", "get", "pay" }
local step = 0
local tokens, placed, ids, unpaid = {}, {}, {}, {}
local KEEP = 1000 -- how many recent tokens and ids each thread keeps to replay and read

setup = common.setup
done = common.done
init = common.init

local function remember(list, value)
  list[#list + 1] = value
  if #list > 2 * KEEP then
    for i = 1, KEEP do list[i] = list[i + KEEP] end
    for i = KEEP + 1, 2 * KEEP do list[i] = nil end
  end
end

local function create(with_key)
  local token = table.remove(tokens)
  if not token then return nil end
  remember(placed, token)
  local headers = common.headers({ ["Order-Token"] = token })
  if with_key then headers["Idempotency-Key"] = "warmup-" .. thread_id .. "-" .. sent end
  return wrk.format("POST", "/orders", headers, common.ORDER_BODY)
end

local function next_request(kind)
  if kind == "create" or kind == "create-key" then
    return create(kind == "create-key")
  elseif kind == "replay" and #placed > 64 then
    -- Not one of the last 48 tokens placed: its first request has most likely finished, so this is
    -- a replay rather than a wait for it (a thread has at most 32 requests in flight).
    local token = placed[math.random(1, #placed - 48)]
    return wrk.format("POST", "/orders", common.headers({ ["Order-Token"] = token }), common.ORDER_BODY)
  elseif kind == "get" and #ids > 0 then
    return wrk.format("GET", "/orders/" .. ids[math.random(1, #ids)], common.headers())
  elseif kind == "pay" and #unpaid > 0 then
    return wrk.format("POST", "/orders/" .. table.remove(unpaid) .. "/pay",
      common.headers({ ["Idempotency-Key"] = "warmup-pay-" .. thread_id .. "-" .. sent }), common.PAY_BODY)
  end
  return nil
end

request = function()
  sent = sent + 1
  step = step % #steps + 1
  return next_request(steps[step]) or wrk.format("POST", "/orders/token", common.headers())
end

response = function(status, headers, body)
  if status ~= 200 and status ~= 201 then
    common.count_unexpected(status)
    return
  end
  local token = body:match('"token"%s*:%s*"([^"]+)"')
  if token then
    tokens[#tokens + 1] = token
  elseif status == 201 and headers["Idempotent-Replayed"] ~= "true" then
    local id = body:match('"id"%s*:%s*"([^"]+)"')
    if id then
      remember(ids, id)
      unpaid[#unpaid + 1] = id
    end
  end
end
