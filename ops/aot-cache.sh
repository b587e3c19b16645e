#!/usr/bin/env bash
# Writes target/quarkus-app/app.aot: the JDK's ahead-of-time cache of the packaged service (JEPs 483,
# 514 and 515: its classes loaded and linked, and the profiles of its hot methods), which takes the
# start to ready from about 7 s to under 4 s on two cores. The cache comes from a training run: the
# service starts with ops/jvm.options, answers a few requests of each kind and stops.
#
# Usage: ops/aot-cache.sh   after ./mvnw package -DskipTests -Dquarkus.package.jar.type=aot-jar
#   JAVA      a JDK 25 or later (default: java on the PATH); the service must then run on the same JDK:
#             cd target/quarkus-app && $JAVA @../../ops/jvm.options -XX:AOTCache=app.aot -jar quarkus-run.jar
#   PGHOST... the PostgreSQL of 127.0.0.1:5432 (database test, user root) and the Redis of 127.0.0.1:6379
#             by default, as for the tests. The run works in a schema and key prefix of its own, which
#             it removes at exit.
set -euo pipefail
cd "$(dirname "$0")/.."

java=${JAVA:-java}
app=target/quarkus-app
name=aot_training_$$
pid=""

log() { printf '%s  %s\n' "$(date +%T)" "$*"; }
die() { printf '%s  FAILED: %s\n' "$(date +%T)" "$*" >&2; exit 1; }

cleanup() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  psql -h 127.0.0.1 -U root -d test -qAtX -c "drop schema if exists $name cascade" >/dev/null 2>&1 || true
  redis-cli -h 127.0.0.1 --scan --pattern "$name:*" | xargs -r -n 500 redis-cli -h 127.0.0.1 del >/dev/null || true
}
trap cleanup EXIT

version=$("$java" -XX:+PrintFlagsFinal -version 2>/dev/null | awk '$2 == "AOTCache" { found = 1 } END { print found + 0 }')
[ "$version" = 1 ] || die "$java has no AOT cache: a JDK 25 or later is needed (set JAVA)"
[ -f "$app/quarkus-run.jar" ] && unzip -p "$app/quarkus-run.jar" META-INF/MANIFEST.MF | grep -q '^Class-Path: ' ||
  die "package the service as aot-jar first: ./mvnw package -DskipTests -Dquarkus.package.jar.type=aot-jar"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
rm -f "$app/app.aot"
log "training run of the service on port $port"
QUARKUS_PROFILE=demo QUARKUS_HTTP_PORT=$port \
  QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$name" QUARKUS_FLYWAY_SCHEMAS=$name \
  ORDERS_REDIS_KEY_PREFIX="$name:" ORDERS_SANDBOX_LATENCY=0S \
  bash -c 'cd target/quarkus-app && exec "$0" @../../ops/jvm.options -XX:MaxMetaspaceSize=512m -XX:AOTCacheOutput=app.aot -jar quarkus-run.jar' "$java" \
  >"$app/aot-training.log" 2>&1 &
pid=$!
for ((i = 0; i < 1200; i++)); do
  curl -sf -o /dev/null "$base/q/health/ready" && break
  kill -0 "$pid" 2>/dev/null || die "the service exited while starting (see $app/aot-training.log)"
  sleep 0.1
done
curl -sf -o /dev/null "$base/q/health/ready" || die "the service was not ready after 120 s"

# Each kind of request the service answers most: tokens, orders, reads of one and of a page, pay.
body='{"currency":"CNY","items":[{"sku":"ABC-1","quantity":1}]}'
for ((i = 0; i < 50; i++)); do
  token=$(curl -sf -u alice:alice -X POST "$base/orders/token" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
  order=$(curl -sf -u alice:alice -H "Order-Token: $token" -H "Idempotency-Key: $name-$i" -H 'Content-Type: application/json' \
    -d "$body" "$base/orders" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
  [ -n "$order" ] || die "the training run could not place an order"
  curl -sf -o /dev/null -u alice:alice "$base/orders/$order"
  curl -sf -o /dev/null -u alice:alice "$base/orders?limit=10"
  curl -s -o /dev/null -u alice:alice -X POST -H "Idempotency-Key: $name-pay-$i" -H 'Content-Type: application/json' \
    -d '{"paymentMethod":"pm_card_visa"}' "$base/orders/$order/pay"
  curl -sf -o /dev/null "$base/q/health/live"
done

# The JVM writes the cache as it exits.
kill "$pid"
wait "$pid" || true
pid=""
[ -s "$app/app.aot" ] || die "no cache was written (see $app/aot-training.log)"
log "wrote $app/app.aot ($(du -m "$app/app.aot" | cut -f1) MB)"
