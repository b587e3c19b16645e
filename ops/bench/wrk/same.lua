-- One request over and over: BENCH_METHOD (default GET) on BENCH_PATH, signed in as BENCH_AUTH unless
-- BENCH_ANONYMOUS is set. POST /orders/token issues a fresh token each time; GET /q/health/live is the
-- app's HTTP stack alone, the floor under every endpoint.
package.path = debug.getinfo(1, "S").source:match("^@(.*)/") .. "/?.lua;" .. package.path
local common = require "common"
local same

setup = common.setup
done = common.done

init = function()
  common.init()
  local headers = os.getenv("BENCH_ANONYMOUS") and { ["Host"] = wrk.headers["Host"] } or common.headers()
  same = wrk.format(os.getenv("BENCH_METHOD") or "GET", os.getenv("BENCH_PATH"), headers)
end

request = function()
  return same
end
