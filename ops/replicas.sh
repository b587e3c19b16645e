#!/usr/bin/env bash
# The compose profile "replicas" on a machine without Docker: three packaged instances (demo profile, one
# key directory) behind HAProxy with ops/haproxy.cfg, its servers pointed at local ports instead of the
# compose network's DNS. Customers read their orders through HAProxy while one replica gets SIGTERM
# mid-load; it prints the status codes they saw (all 200 when the replica drained before it stopped).
#
# Usage: ops/replicas.sh   (after ./mvnw package -DskipTests; needs haproxy and hey)
# Runs on the machine's PostgreSQL (schema replicas_sh) and Redis (keys replicas-sh:*), removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in haproxy hey java psql redis-cli; do
  command -v "$tool" >/dev/null || { echo "ops/replicas.sh needs $tool" >&2; exit 1; }
done
[ -f target/quarkus-app/quarkus-run.jar ] || { echo "run ./mvnw package -DskipTests first" >&2; exit 1; }

work=$(mktemp -d)
pids=()
schema=replicas_sh
prefix=replicas-sh:
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; done
  psql -q -h 127.0.0.1 -U root test -c "DROP SCHEMA IF EXISTS $schema CASCADE" 2>/dev/null || true
  redis-cli --scan --pattern "$prefix*" | xargs -r -n 500 redis-cli del >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

sed -e '/^resolvers docker/,/^    hold valid/d' -e 's/ init-addr none resolvers docker//' -e 's/bind :8080/bind 127.0.0.1:18080/' \
  -e 's|    server-template replica 3 app:8080 check|    server replica1 127.0.0.1:18081 check\n    server replica2 127.0.0.1:18082 check\n    server replica3 127.0.0.1:18083 check|' \
  ops/haproxy.cfg > "$work/haproxy.cfg"
haproxy -c -q -f "$work/haproxy.cfg"

for replica in 1 2 3; do
  QUARKUS_PROFILE=demo QUARKUS_HTTP_PORT=1808$replica \
    QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$schema" QUARKUS_DATASOURCE_USERNAME=root \
    QUARKUS_FLYWAY_SCHEMAS=$schema QUARKUS_REDIS_HOSTS=redis://127.0.0.1:6379 ORDERS_REDIS_KEY_PREFIX=$prefix \
    ORDERS_DEMO_KEY_DIR="$work/demo-keys" QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING=true \
    QUARKUS_HTTP_PROXY_ALLOW_X_FORWARDED=true QUARKUS_HTTP_PROXY_TRUSTED_PROXIES=127.0.0.1 \
    java -Xmx384m -jar target/quarkus-app/quarkus-run.jar >"$work/replica$replica.log" 2>&1 &
  pids+=($!)
done
haproxy -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
pids+=($!)

ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$1/q/health/ready")" = 200 ]; }
for port in 18081 18082 18083 18080; do
  for _ in $(seq 600); do ready $port && break; sleep 0.1; done
  ready $port || { echo "nothing ready on $port; logs in $work" >&2; trap - EXIT; exit 1; }
done
echo "three replicas ready behind HAProxy on 127.0.0.1:18080"

auth="Authorization: Basic $(printf alice:alice | base64)"
hey -z 20s -c 8 -H "$auth" 'http://127.0.0.1:18080/orders?limit=1' >"$work/hey.txt" &
load=$!
sleep 5
kill -TERM "${pids[1]}"
signalled=$(date +%s%N)
while kill -0 "${pids[1]}" 2>/dev/null; do sleep 0.1; done
echo "replica 2 got SIGTERM mid-load and exited after $(( ($(date +%s%N) - signalled) / 1000000 )) ms"
wait $load
grep -A4 'Status code distribution' "$work/hey.txt"
grep -q 'Error distribution' "$work/hey.txt" && sed -n '/Error distribution/,$p' "$work/hey.txt"
grep -m1 'replica2 is DOWN, reason: Layer7 wrong status, code: 503' "$work/haproxy.log" | sed 's/^\[WARNING\] *([0-9]*) : //' | cut -c1-110
