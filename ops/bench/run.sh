#!/usr/bin/env bash
# Order creation through the service beside the raw limit of its database, in one run on one machine:
#   1. pgbench inserting the same rows (order + item, UNIQUE token hash) straight into PostgreSQL;
#   2. the packaged service (./mvnw package first) taking orders over HTTP, token then order, as clients do.
# Usage: ops/bench/run.sh [clients=16] [seconds=20]; writes ops/bench/RESULTS.md.
# It uses its own schemas and key prefix on the local servers and removes them afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
clients=${1:-16}
seconds=${2:-20}
run=bench_$(date +%s)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
psql() { command psql -h 127.0.0.1 -U root -d test -qAt "$@"; }

[ -f target/quarkus-app/quarkus-run.jar ] || ./mvnw -B -q package -DskipTests

QUARKUS_PROFILE=demo QUARKUS_HTTP_PORT=$port \
QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$run" QUARKUS_FLYWAY_SCHEMAS=$run \
ORDERS_REDIS_KEY_PREFIX="$run:" ORDERS_TOKENS_MAX_OUTSTANDING=100000 QUARKUS_LOG_LEVEL=WARN \
  java -jar target/quarkus-app/quarkus-run.jar > "/tmp/$run.log" 2>&1 &
app=$!
cleanup() {
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  psql -c "DROP SCHEMA IF EXISTS $run CASCADE; DROP SCHEMA IF EXISTS ${run}_raw CASCADE" >/dev/null 2>&1 || true
  redis-cli --scan --pattern "$run:*" | xargs -r redis-cli del >/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null && break; sleep 1; done

# The raw limit: the service's own tables, copied empty into a schema of their own.
psql -c "CREATE SCHEMA ${run}_raw; SET search_path = ${run}_raw;
         CREATE TABLE orders (LIKE $run.orders INCLUDING ALL); CREATE TABLE order_items (LIKE $run.order_items INCLUDING ALL);"
raw=$(PGOPTIONS="-c search_path=${run}_raw" pgbench -h 127.0.0.1 -U root -n -c "$clients" -j 2 -T "$seconds" -f ops/bench/insert-order.sql test 2>/dev/null \
      | awk '/^tps/ {print $3; exit}')

load=$(python3 ops/bench/load.py 127.0.0.1 "$port" "$clients" "$seconds")
rss=$(ps -o rss= -p "$app" | awk '{printf "%d", $1 / 1024}')
stored=$(psql -c "SELECT count(*) FROM $run.orders")

cat > ops/bench/RESULTS.md <<RESULTS
# Order creation: the service beside its database's raw limit

Run on $(date -u +%Y-%m-%d) with \`ops/bench/run.sh $clients $seconds\` on $(nproc) cores: $clients concurrent clients for ${seconds} s each,
PostgreSQL and Redis local, the packaged service with \`QUARKUS_PROFILE=demo\`.

| what | result |
|---|---|
| PostgreSQL alone (pgbench: order + item insert, one transaction) | ${raw%.*} transactions/s |
| The service: token, then \`POST /orders\` (JSON, validation, Redis script, insert, Redis script) | $load |
| Orders stored by the service | $stored |
| Service memory after the run (RSS) | ${rss} MB |

The load generator (\`ops/bench/load.py\`, Python) runs on the same cores as the service and the databases.
RESULTS
cat ops/bench/RESULTS.md
