#!/usr/bin/env bash
# Starts the README's run command (./mvnw quarkus:dev), waits until /q/health/ready says UP, then
# takes an order token and places one order as the demo user alice; then changes a source file's
# time (touch: the tree stays as it was), which makes the next request recompile and restart the app
# (live reload), and requires that order to be read back afterwards; then stops.
# Usage: ops/dev-smoke.sh [seconds, default 60]; MAVEN_ARGS=-o runs Maven offline.
# It uses a schema and key prefix of its own on the local servers and removes both afterwards; where
# those servers do not answer, dev mode runs on embedded ones (the log line saying so is shown).
set -euo pipefail
cd "$(dirname "$0")/.."

limit=${1:-60}
run=smoke_$(date +%s)_$$
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)

export QUARKUS_HTTP_PORT=$port
export QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$run"
export QUARKUS_FLYWAY_SCHEMAS=$run
export ORDERS_REDIS_KEY_PREFIX="$run:"

start=$(date +%s)
setsid ./mvnw -B quarkus:dev -Ddebug=false -Dquarkus.console.enabled=false >"$log" 2>&1 &
pid=$!

cleanup() {
  kill -- -"$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  psql -h 127.0.0.1 -U root -d test -qc "DROP SCHEMA IF EXISTS $run CASCADE" >/dev/null 2>&1 || true
  redis-cli -h 127.0.0.1 --scan --pattern "$run:*" 2>/dev/null | xargs -r redis-cli -h 127.0.0.1 del >/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT

place_order() {
  local base="http://127.0.0.1:$port" token order
  token=$(curl -sf -u alice:alice -X POST "$base/orders/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  order=$(curl -sf -u alice:alice -H 'Content-Type: application/json' -H "Order-Token: $token" \
    -d '{"currency":"CNY","items":[{"sku":"ABC-1","quantity":1,"unitPrice":"12.50"}]}' "$base/orders")
  echo "order placed: $order"
  echo "$order" | grep -q '"status":"created"'
  order_id=$(echo "$order" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
}

read_order_after_live_reload() {
  local started found url="http://127.0.0.1:$port/orders/$order_id"
  started=$(date +%s)
  touch src/main/java/io/orderflow/order/OrderResource.java
  # Dev mode looks for changed files on a request at most every two seconds: ask until it has reloaded.
  until grep -q "Live reload total time" "$log"; do
    if [ $(( $(date +%s) - started )) -ge "$limit" ]; then
      echo "no live reload within ${limit}s:" >&2; tail -n 40 "$log" >&2; exit 1
    fi
    curl -s -o /dev/null --max-time "$limit" -u alice:alice "$url" || true
    sleep 1
  done
  if ! found=$(curl -sf -u alice:alice "$url" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])') \
      || [ "$found" != "$order_id" ]; then
    echo "after live reload: order $order_id not found" >&2; tail -n 40 "$log" >&2; exit 1
  fi
  echo "after live reload: order $order_id still there ($(( $(date +%s) - started ))s)"
}

while true; do
  elapsed=$(( $(date +%s) - start ))
  status=$(curl -s -o /tmp/ready.$$ -w '%{http_code}' "http://127.0.0.1:$port/q/health/ready" || true)
  if [ "$status" = 200 ] && grep -q '"UP"' /tmp/ready.$$; then
    echo "dev mode ready: /q/health/ready UP after ${elapsed}s"
    cat /tmp/ready.$$; echo
    rm -f /tmp/ready.$$
    grep -o "Embedded [A-Za-z]* started.*" "$log" || true
    place_order
    read_order_after_live_reload
    exit 0
  fi
  if [ "$status" = 500 ] || grep -q "Failed to start" "$log"; then
    echo "dev mode failed to start:" >&2; tail -n 40 "$log" >&2; exit 1
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "dev mode exited:" >&2; tail -n 40 "$log" >&2; exit 1
  fi
  if [ "$elapsed" -ge "$limit" ]; then
    echo "dev mode not ready after ${limit}s:" >&2; tail -n 40 "$log" >&2; exit 1
  fi
  sleep 1
done
