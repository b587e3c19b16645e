-- Shared by the benchmark's wrk scripts. run.sh passes everything by environment:
--   BENCH_AUTH     the Authorization header ("Basic ...")
--   BENCH_THREADS  wrk's -t
--   BENCH_INPUT    a prepared file (tokens or order ids, one a line), for the measured phases
--   BENCH_KEYS     when set, each request carries an Idempotency-Key starting with it
--   BENCH_HOT      when set, every order is for the same product (see order_body)
--   BENCH_OUTPUT, BENCH_COUNT  for the preparing scripts: where to write, and how many lines in all
-- Each script ends with one "RESULT ..." line that run.sh reads.
local common = {}

-- The order that the replay, GET and pay phases place, and every order of the flash sale: ABC-1 has
-- 1,000,000 units in the demo catalog.
common.ORDER_BODY = '{"currency":"CNY","items":[{"sku":"ABC-1","quantity":1}]}'

-- The order of the POST /orders phases: one unit of one of the 100 products of products.sql, in turn,
-- or of ABC-1 when BENCH_HOT is set (a flash sale).
function common.order_body(n)
  if os.getenv("BENCH_HOT") then return common.ORDER_BODY end
  return string.format('{"currency":"CNY","items":[{"sku":"BENCH-%03d","quantity":1}]}', n % 100 + 1)
end
common.PAY_BODY = '{"paymentMethod":"pm_card_visa"}'

-- What a thread asks once its prepared input is used up: an order that does not exist, answered 404
-- at once, so that running out shows as failures in the figure, never as quick false successes.
common.NOTHING_LEFT = "/orders/00000000-0000-7000-8000-000000000000"

local threads, next_thread = {}, 0

-- Numbers the threads (before each one's init), so that each takes its own lines of the input.
function common.setup(thread)
  thread:set("thread_id", next_thread)
  next_thread = next_thread + 1
  threads[#threads + 1] = thread
end

-- Per-thread state lives in globals of the thread's own Lua state; done() reads exhausted and
-- unexpected from each thread with thread:get.
function common.init()
  exhausted, unexpected = 0, 0
  auth = os.getenv("BENCH_AUTH")
  keys = os.getenv("BENCH_KEYS")
  if keys == "" then keys = nil end
  sent = 0
end

-- The headers of one request; wrk.format replaces wrk.headers entirely, so every request names them all.
function common.headers(extra)
  local headers = { ["Host"] = wrk.headers["Host"], ["Authorization"] = auth, ["Content-Type"] = "application/json" }
  for name, value in pairs(extra or {}) do headers[name] = value end
  return headers
end

-- A fresh Idempotency-Key per request when the phase asks for keys: unique per run, phase, thread, request.
function common.with_key(headers)
  if keys then headers["Idempotency-Key"] = keys .. thread_id .. "-" .. sent end
  return headers
end

-- A request function that sends prepared requests in turn, over and over.
function common.cycle(requests)
  return function()
    sent = sent + 1
    return requests[(sent - 1) % #requests + 1]
  end
end

-- This thread's share of the input: line i belongs to thread i % BENCH_THREADS.
function common.my_lines()
  local count, lines, i = tonumber(os.getenv("BENCH_THREADS")), {}, 0
  for line in io.lines(os.getenv("BENCH_INPUT")) do
    if i % count == thread_id then lines[#lines + 1] = line end
    i = i + 1
  end
  return lines
end

-- Preparing scripts write this thread's share of BENCH_COUNT lines to BENCH_OUTPUT.<thread>, then
-- leave BENCH_OUTPUT.<thread>.done and stop; run.sh ends wrk once every thread has.
function common.open_output()
  output = io.open(os.getenv("BENCH_OUTPUT") .. "." .. thread_id, "w")
  quota = math.ceil(tonumber(os.getenv("BENCH_COUNT")) / tonumber(os.getenv("BENCH_THREADS")))
  written = 0
end

function common.write_line(line)
  if written == quota then return end
  output:write(line, "\n")
  written = written + 1
  if written == quota then
    output:close()
    io.open(os.getenv("BENCH_OUTPUT") .. "." .. thread_id .. ".done", "w"):close()
    wrk.thread:stop()
  end
end

-- Keeps the first few statuses of answers the phase did not expect, for RESULTS.md to name.
function common.note_status(status)
  noted = (noted or 0) + 1
  if noted <= 5 then odd_statuses = (odd_statuses or "") .. status .. "," end
end

-- Counts a 2xx answer the phase did not expect (wrk counts the others as failed itself).
function common.count_unexpected(status)
  unexpected = unexpected + 1
  common.note_status(status)
end

function common.nothing_left()
  exhausted = exhausted + 1
  return wrk.format("GET", common.NOTHING_LEFT, common.headers())
end

-- One line for run.sh: counts, the time measured, the failures of every kind, and the latency percentiles.
function common.done(summary, latency, requests)
  local ran_out, odd, statuses = 0, 0, ""
  for _, thread in ipairs(threads) do
    ran_out = ran_out + (thread:get("exhausted") or 0)
    odd = odd + (thread:get("unexpected") or 0)
    statuses = statuses .. (thread:get("odd_statuses") or "")
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f failed=%d socket_errors=%d exhausted=%d unexpected=%d unexpected_statuses=%s p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, summary.duration / 1e6, e.status, e.connect + e.read + e.write + e.timeout, ran_out, odd,
    statuses == "" and "none" or statuses:sub(1, -2),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end

return common
