#!/usr/bin/env bash
# The service's throughput beside the raw limits of what it is built on, in one run on one machine,
# at the same concurrency (16 and 64 connections):
#   raw limits   pgbench: an order + item insert, the same with its unit reserved on one of 100
#                products (an order; on the service's tables and on minimal ones) or on one product (a
#                flash sale), a transition (guarded UPDATE + history INSERT), a pay's own rows in its two
#                transactions (pay.sql) and a GET's own read (get-order.sql); redis-benchmark: the
#                order-token claim script;
#   the service  the packaged jar (demo profile, ops/jvm.options, on a JDK 25 or later with its AOT cache) under wrk: POST /orders sustained
#                with its order events delivered, with and without an Idempotency-Key, and a flash
#                sale of one product; POST /orders/token; pay, with the payment provider in another
#                process (nginx answering at once, ops/bench/provider/nginx.conf); a replay of POST /orders;
#                GET /orders/{id} beside GET /q/health/live; and POST /orders again beside 1,000,000
#                orders and 1,000,000 live keys.
# All phases of the service follow one shared warm-up (POST /orders alone, then every path), and each
# waits until the outbox has drained, counting that time, so a figure pays for its background work.
# Each phase also gives the CPU seconds the service, PostgreSQL, Redis and the provider spent per
# 1,000 requests, and hey measures the latency of GET, token and replay at a fixed offered rate (half
# the rate wrk reached), which a closed loop of 16 connections cannot flatter by waiting.
# It writes ops/bench/RESULTS.md (figures, ratios, the targets of issue 43) and ops/bench/results.png,
# and refuses to when the load average is above 1.0 as it starts: the figures would be the other
# work's as much as the service's.
#
# Usage: ops/bench/run.sh [seconds per phase=20] [warm-up seconds=60] [orders and keys to add=1000000]
#   ops/bench/run.sh 5 5   a smoke run (about 5 minutes): proves the harness; its figures mean little,
#                          so it writes its table to the terminal and leaves RESULTS.md alone.
#   ops/bench/run.sh       the figures to quote (about 20 minutes), on a machine nothing else is using.
# Environment: BENCH_NOTE, a line for RESULTS.md (e.g. what else ran on the machine);
#              BENCH_JAVA, the service's java: a JDK 25 or later (by default the first found: java on the PATH,
#              then /usr/lib/jvm/*/bin/java);
#              BENCH_JAVA_OPTS, JVM options for the service (by default ops/jvm.options and the AOT cache,
#              as docs/operations.md runs it);
#              BENCH_PROFILE, a directory: each phase of the service is profiled by async-profiler (CPU,
#              1 ms) into NAME.collapsed there, for ops/bench/profile.py (the profiler costs CPU too, so
#              quote no figure of such a run).
#
# It works on the shared PostgreSQL and Redis of 127.0.0.1 inside two schemas and a key prefix of its
# own, which it removes at exit, and it ends only the processes it started.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-20}
warmup=${2:-60}
fill=${3:-1000000}
levels=(16 64)
threads=2 # wrk -t, pgbench -j and redis-benchmark --threads, the same on every machine
bench=ops/bench
java_opts=${BENCH_JAVA_OPTS:-@../../ops/jvm.options -XX:AOTCache=app.aot} # the service runs in target/quarkus-app, as ops/jvm.options says

run=bench_$(date +%s)_$$ # this run's schema, and with a colon its Redis key prefix
raw=${run}_raw           # the service's tables copied empty, for pgbench
minimal=${run}_min       # the order's tables with their primary keys and the token's unique key only, for pgbench
prefix="$run:"
work=$(mktemp -d "/tmp/$run.XXXX")
halves=()              # the wrk processes of a load shared by two (half_load)
declare -A fig         # every figure, by name: fig[create.16.sustained], fig[raw-insert.64.p99_ms], ...
profiler="" # async-profiler's library, when BENCH_PROFILE asks for profiles
app="" second="" provider="" sampler="" loader="" counted="" counter="" # the processes this script started, ended by PID at exit
java="" java_version="" # the service's java (find_java)
service_commit="" # the commit measured, and whether the tree differed from it as the run began

log() { printf '%s  %s\n' "$(date +%T)" "$*"; }
die() { printf '%s  FAILED: %s\n' "$(date +%T)" "$*" >&2; exit 1; }
now_ns() { date +%s%N; }
calc() { awk "BEGIN { printf \"%.${2:-0}f\", $1 }"; } # calc EXPRESSION [decimals]
max() { printf '%s\n' "$@" | sort -g | tail -n 1; }
# psql in a schema ("" for none), quiet but for errors: psql_in SCHEMA [psql arguments...]
psql_in() {
  PGOPTIONS="-c client_min_messages=warning${1:+ -c search_path=$1}" \
    psql -h 127.0.0.1 -U root -d test -qAtX -v ON_ERROR_STOP=1 "${@:2}"
}
sql() { psql_in "" "$@"; }
app_sql() { psql_in "$run" "$@"; }
raw_sql() { psql_in "$raw" "$@"; }
rcli() { redis-cli -h 127.0.0.1 -p 6379 "$@"; }

# ---------------------------------------------------------------------------------------------
# Setting up and cleaning up

# Installs what is missing from Debian's packages, so that a fresh clone runs with one command.
ensure_tools() {
  local -A package=([wrk]=wrk [hey]=hey [gnuplot]=gnuplot-nox [jq]=jq [curl]=curl [psql]=postgresql-client [nginx]=nginx
    [pgbench]=postgresql-client [redis-cli]=redis-tools [redis-benchmark]=redis-tools)
  local missing=() tool
  for tool in "${!package[@]}"; do
    command -v "$tool" >/dev/null || missing+=("${package[$tool]}")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${missing[@]}" >/dev/null ||
    { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
}

# The first java that has an AOT cache (JDK 25 or later): BENCH_JAVA, java on the PATH, /usr/lib/jvm/*/bin/java.
find_java() {
  local candidate
  for candidate in ${BENCH_JAVA:-} java /usr/lib/jvm/*/bin/java; do
    if "$candidate" -XX:+PrintFlagsFinal -version 2>/dev/null | awk '$2 == "AOTCache" { found = 1 } END { exit !found }'; then
      java=$(command -v "$candidate")
      return
    fi
  done
  die "no JDK 25 or later (set BENCH_JAVA): the service runs with its AOT cache, as docs/operations.md says"
}

# The packaged service (aot-jar) with its AOT cache (ops/aot-cache.sh), built when the cache is missing
# or older than the sources or the jar.
build_service() {
  local cache=target/quarkus-app/app.aot
  if [ ! -f "$cache" ] || [ -n "$(find src pom.xml target/quarkus-app/quarkus-run.jar -newer "$cache" -print -quit 2>/dev/null)" ]; then
    log "building the service (./mvnw package as aot-jar, then its AOT cache with $java)"
    ./mvnw -B -q package -DskipTests -Dquarkus.package.jar.type=aot-jar
    JAVA=$java ops/aot-cache.sh
  fi
}

# The order the replay, GET and pay phases place (wrk/common.lua's ORDER_BODY), for requests sent without wrk.
order_body() { sed -n "s/^common.ORDER_BODY = '\(.*\)'$/\1/p" "$bench/wrk/common.lua"; }
pay_body() { sed -n "s/^common.PAY_BODY = '\(.*\)'$/\1/p" "$bench/wrk/common.lua"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The payment provider in a process of its own, so that pay is measured at the service's own cost:
# nginx answering every charge at once as succeeded (ops/bench/provider/nginx.conf), in the foreground
# and as one process (no master), so that $provider is the PID that holds its CPU. -e keeps even its
# first log lines, before it has read its configuration, in this run's directory.
start_provider() {
  local began
  mkdir -p "$work/nginx"
  sed "s#WORK#$work/nginx#g; s#PORT#$provider_port#" "$bench/provider/nginx.conf" >"$work/nginx/nginx.conf"
  nginx -e "$work/nginx/nginx-error.log" -c "$work/nginx/nginx.conf" -p "$work/nginx" >"$work/provider.log" 2>&1 &
  provider=$!
  began=$(now_ns)
  until curl -s -o /dev/null "http://127.0.0.1:$provider_port/health"; do
    kill -0 "$provider" 2>/dev/null || die "the payment provider exited while starting: $(cat "$work/provider.log" "$work/nginx/nginx-error.log" 2>/dev/null)"
    (($(now_ns) - began < 60 * 10 ** 9)) || die "the payment provider was not ready after 60 s"
    sleep 0.1
  done
  log "payment provider (nginx) on port $provider_port"
}

# async-profiler from Maven Central, attached to the service by jcmd for each phase when BENCH_PROFILE is set.
prepare_profiler() {
  [ -n "${BENCH_PROFILE:-}" ] || return 0
  mkdir -p "$BENCH_PROFILE"
  ./mvnw -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64 -DoutputDirectory="$work" \
    -Dmdep.stripVersion=true >/dev/null || die "cannot fetch async-profiler"
  unzip -q -o "$work/async-profiler-linux-x64.jar" 'linux-x64/*' -d "$work/async-profiler"
  profiler=$work/async-profiler/linux-x64/libasyncProfiler.so
  java_opts+=" -XX:+EnableDynamicAgentLoading"
}

# profile start|stop NAME: the service's CPU profile of one phase, as collapsed stacks in $BENCH_PROFILE/NAME.collapsed.
profile() {
  [ -n "$profiler" ] || return 0
  local options="start,event=cpu,interval=1ms" answer
  [ "$1" = start ] || options="stop,file=$BENCH_PROFILE/$2.collapsed,collapsed"
  # Quoted for jcmd, which would read the options' "=" as its own arguments; it answers "return code: 0" when the profiler took them.
  answer=$("$(dirname "$java")/jcmd" "$app" JVMTI.agent_load "$profiler" "\"$options\"")
  grep -q 'return code: 0' <<<"$answer" || die "async-profiler refused $1 for $2: $answer"
}

# Starts the packaged service on a free port in this run's schema and key prefix, and records the
# time from launch to /q/health/ready. Tokens live long and are not capped, so that each phase's
# tokens can be issued before it; charges go to the provider above. Reconciliation is off: the
# provider keeps no ledger of charges to list.
start_service() {
  port=$(free_port)
  base=http://127.0.0.1:$port
  local began; began=$(now_ns)
  launch_service "$port" "$run" "$prefix" 5432 6379 "$work/service.log"
  app=$launched
  await_ready "$app" "$base" service
  fig[start.seconds]=$(calc "($(now_ns) - $began) / 1e9" 2)
  log "service ready on port $port after ${fig[start.seconds]} s (schema $run)"
  app_sql -f "$bench/products.sql" >/dev/null
}

# Runs the packaged service in the background; its PID in $launched. launch_env, when set on the call,
# adds NAME=value settings of its own. launch_service HTTP-PORT SCHEMA KEY-PREFIX POSTGRESQL-PORT REDIS-PORT LOG
# A closed loop of wrk's or hey's connections never offers more than it is served: past the load shedder's
# limit (whose cost every request still pays) each request waits for its place instead of being refused.
# Refusals past capacity are the overload proof's to measure (ops/proof/run.sh overload).
launch_service() {
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS and launch_env hold several words
  env ${launch_env:-} QUARKUS_PROFILE=demo QUARKUS_HTTP_PORT=$1 \
    QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:$4/test?currentSchema=$2" \
    QUARKUS_FLYWAY_SCHEMAS=$2 ORDERS_REDIS_KEY_PREFIX=$3 QUARKUS_REDIS_HOSTS="redis://127.0.0.1:$5" \
    ORDERS_TOKENS_MAX_OUTSTANDING=100000000 ORDERS_TOKENS_TTL=6H ORDERS_SANDBOX_LATENCY=0S ORDERS_DEMO_STAFF_PASSWORD=ops \
    ORDERS_OVERLOAD_MAX_WAITING=1000 ORDERS_OVERLOAD_MAX_WAIT=30S \
    QUARKUS_REST_CLIENT_PAYMENT_PROVIDER_URL="http://127.0.0.1:$provider_port" ORDERS_PAYMENTS_RECONCILIATION_INTERVAL=off \
    bash -c 'cd target/quarkus-app && exec "$0" "$@" -jar quarkus-run.jar' "$java" $java_opts >"$6" 2>&1 &
  launched=$!
}

await_ready() { # PID BASE NAME
  local began; began=$(now_ns)
  until curl -sf -o /dev/null "$2/q/health/ready"; do
    kill -0 "$1" 2>/dev/null || die "the $3 exited while starting"
    (($(now_ns) - began < 120 * 10 ** 9)) || die "the $3 was not ready after 120 s"
    sleep 0.05
  done
}

# Round trips to PostgreSQL and Redis per POST /orders/token, per POST /orders and per pay (with an
# Idempotency-Key, charged by the provider), one request at a time: a second instance of the service,
# on a schema and key prefix of its own, reaches both servers through trips.py, which counts them. Its
# background work is off (the outbox relay and the scheduled jobs), so that each count is the request's
# own, as RoundTripBudgetTest pins them; delivering the events those requests wrote is counted after
# (count_delivery_trips). What the idle instance still makes meanwhile (measured for a while first, per
# second) is taken off.
count_round_trips() {
  local requests=200 control pg_port redis_port http_port trips_base schema=${run}_trips idle=5 i token
  local -a before after
  control=$(free_port) pg_port=$(free_port) redis_port=$(free_port) http_port=$(free_port)
  python3 "$bench/trips.py" "$control" "pg=$pg_port:5432" "redis=$redis_port:6379" &
  counter=$!
  until trips_now "$control" >/dev/null 2>&1; do kill -0 "$counter" 2>/dev/null || die "trips.py exited"; sleep 0.1; done
  trips_base=http://127.0.0.1:$http_port
  launch_env="ORDERS_OUTBOX_POLL_INTERVAL=off QUARKUS_SCHEDULER_ENABLED=false" \
    launch_service "$http_port" "$schema" "${schema}:" "$pg_port" "$redis_port" "$work/counted.log"
  counted=$launched
  await_ready "$counted" "$trips_base" "counted instance"
  read -r -a before <<<"$(trips_now "$control")"
  sleep "$idle"
  read -r -a after <<<"$(trips_now "$control")"
  fig[trips.idle.pg]=$(calc "(${after[0]} - ${before[0]}) / $idle" 1) fig[trips.idle.redis]=$(calc "(${after[1]} - ${before[1]}) / $idle" 1)
  trips_of token "$control" "$requests" bash -c "curl -sf -u alice:alice -X POST '$trips_base/orders/token' | jq -r .token >>'$work/trips.tokens'"
  local body; body=$(order_body)
  exec 4<"$work/trips.tokens"
  trips_of order "$control" "$requests" bash -c "read -r token <&4 && curl -sf -u alice:alice -H \"Order-Token: \$token\" -H 'Content-Type: application/json' -d '$body' '$trips_base/orders' | jq -r .id >>'$work/trips.orders'"
  exec 4<&-
  local pay; pay=$(pay_body)
  exec 4<"$work/trips.orders"
  trips_of pay "$control" "$requests" bash -c "read -r id <&4 && curl -sf -o /dev/null -u alice:alice -H \"Idempotency-Key: trips-\$id\" -H 'Content-Type: application/json' -d '$pay' '$trips_base/orders/'\$id/pay"
  exec 4<&-
  kill "$counted" 2>/dev/null
  wait "$counted" 2>/dev/null || true
  counted=""
  log "round trips: per token PostgreSQL ${fig[trips.token.pg]}, Redis ${fig[trips.token.redis]}; per order PostgreSQL ${fig[trips.order.pg]}, Redis ${fig[trips.order.redis]}; per pay PostgreSQL ${fig[trips.pay.pg]}, Redis ${fig[trips.pay.redis]}; idle ${fig[trips.idle.pg]}/s and ${fig[trips.idle.redis]}/s"
  count_delivery_trips "$control" "$schema" "$pg_port" "$redis_port"
  kill "$counter" 2>/dev/null
  wait "$counter" 2>/dev/null || true
  counter=""
}

# Round trips per event of delivering the events the counted requests wrote (still PENDING, as their
# instance's relay was off): the counted instance started again on the same schema, background work on.
# Its start is not counted: the events are put a day off before it starts and made due once it is ready
# and has polled for a while (by psql beside trips.py, uncounted); the count runs from then until no
# event is PENDING, less what the instance makes idle afterwards. They leave as one backlog, in the
# relay's full batches: an event that leaves in a smaller batch, as under a lighter load, takes a larger
# share of its batch's round trips.
# count_delivery_trips CONTROL-PORT SCHEMA POSTGRESQL-PORT REDIS-PORT
count_delivery_trips() {
  local control=$1 schema=$2 http_port began elapsed idle=5 waited
  local -a before after rest
  psql_in "$schema" -c "UPDATE outbox SET next_attempt_at = now() + interval '1 day' WHERE status = 'PENDING'" >/dev/null
  fig[trips.deliver.events]=$(pending_events "$schema")
  http_port=$(free_port)
  launch_service "$http_port" "$schema" "${schema}:" "$3" "$4" "$work/delivering.log"
  counted=$launched
  await_ready "$counted" "http://127.0.0.1:$http_port" "delivering instance"
  sleep 2
  read -r -a before <<<"$(trips_now "$control")"
  began=$(now_ns)
  psql_in "$schema" -c "UPDATE outbox SET next_attempt_at = now() WHERE status = 'PENDING'" >/dev/null
  waited=0
  while [ "$(pending_events "$schema")" != 0 ] && ((waited < 1200)); do sleep 0.1; waited=$((waited + 1)); done
  # The relay's last look for more after its last batch belongs to the delivery, not to the idle rate.
  sleep 1
  read -r -a after <<<"$(trips_now "$control")"
  elapsed=$(calc "($(now_ns) - $began) / 1e9" 3)
  sleep "$idle"
  read -r -a rest <<<"$(trips_now "$control")"
  kill "$counted" 2>/dev/null
  wait "$counted" 2>/dev/null || true
  counted=""
  if [ "$(pending_events "$schema")" != 0 ] || ((${fig[trips.deliver.events]} == 0)); then
    fig[trips.deliver.pg]=n/a fig[trips.deliver.redis]=n/a
    log "round trips of delivering events: not counted ($(pending_events "$schema") of ${fig[trips.deliver.events]} events still PENDING)"
    return
  fi
  fig[trips.deliver.idle_pg]=$(calc "(${rest[0]} - ${after[0]}) / $idle" 1) fig[trips.deliver.idle_redis]=$(calc "(${rest[1]} - ${after[1]}) / $idle" 1)
  fig[trips.deliver.pg]=$(calc "(${after[0]} - ${before[0]} - ${fig[trips.deliver.idle_pg]} * $elapsed) / ${fig[trips.deliver.events]}" 2)
  fig[trips.deliver.redis]=$(calc "(${after[1]} - ${before[1]} - ${fig[trips.deliver.idle_redis]} * $elapsed) / ${fig[trips.deliver.events]}" 2)
  log "round trips of delivering ${fig[trips.deliver.events]} events, per event: PostgreSQL ${fig[trips.deliver.pg]}, Redis ${fig[trips.deliver.redis]} (in $elapsed s; idle ${fig[trips.deliver.idle_pg]}/s and ${fig[trips.deliver.idle_redis]}/s)"
}

trips_now() { cat </dev/tcp/127.0.0.1/"$1" | awk '{ printf "%s ", $2 } END { print "" }'; }

# trips_of NAME CONTROL-PORT REQUESTS COMMAND...: runs the command REQUESTS times, one after another,
# and keeps the round trips per request, without the idle rate for the time it took.
trips_of() {
  local name=$1 control=$2 requests=$3 began elapsed i
  local -a before after
  shift 3
  read -r -a before <<<"$(trips_now "$control")"
  began=$(now_ns)
  for ((i = 0; i < requests; i++)); do "$@" || die "a request of the round-trip count ($name) failed"; done
  elapsed=$(calc "($(now_ns) - $began) / 1e9" 3)
  read -r -a after <<<"$(trips_now "$control")"
  fig[trips.$name.pg]=$(calc "(${after[0]} - ${before[0]} - ${fig[trips.idle.pg]} * $elapsed) / $requests" 1)
  fig[trips.$name.redis]=$(calc "(${after[1]} - ${before[1]} - ${fig[trips.idle.redis]} * $elapsed) / $requests" 1)
}

stop_service() {
  [ -n "$app" ] || return 0
  kill "$app" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.2; done
  kill -9 "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  app=""
}

# Every key of this run: the service's, the raw claim records and the added idempotency records.
drop_keys() {
  local pattern
  for pattern in "$prefix*" "${run}_trips:*"; do
    rcli --scan --pattern "$pattern" | xargs -r -n 1000 redis-cli -h 127.0.0.1 -p 6379 unlink >/dev/null
  done
}

cleanup() {
  local status=$?
  set +e
  for pid in $loader $sampler $provider $counted $counter $second; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  stop_service
  sql -c "DROP SCHEMA IF EXISTS $raw CASCADE" -c "DROP SCHEMA IF EXISTS $minimal CASCADE" -c "DROP SCHEMA IF EXISTS $run CASCADE" -c "DROP SCHEMA IF EXISTS ${run}_trips CASCADE" >/dev/null 2>&1
  drop_keys
  if [ "$status" -ne 0 ] && [ -s "$work/service.log" ]; then
    echo "--- the service's log, last 40 lines"
    tail -n 40 "$work/service.log"
  fi
  rm -rf "$work"
  exit "$status"
}

# ---------------------------------------------------------------------------------------------
# Measuring

pending_events() { psql_in "${1:-$run}" -c "SELECT count(*) FROM outbox WHERE status = 'PENDING'"; } # [SCHEMA]

# CPU time, in clock ticks, of the service, PostgreSQL, Redis and the payment provider: per phase, the
# difference over its load and its drain, per 1,000 requests answered as expected.
hz=$(getconf CLK_TCK)
listener() { ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# PostgreSQL: the postmaster with the backends that have ended (cutime, cstime), and those still running.
pg_ticks() {
  local sum child
  sum=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pg_pid/stat")
  for child in $(pgrep -P "$pg_pid"); do sum=$((sum + $(ticks "$child"))); done
  echo "$sum"
}
cpu_parts=(app pg redis provider)
cpu_now() { echo "$(ticks "$app") $(pg_ticks) $(ticks "$redis_pid") $(ticks "$provider")"; }
cpu_mark() { fig[$1.cpu_mark]=$(cpu_now) fig[$1.wal_mark]=$(wal_now); }
# PostgreSQL's write-ahead log position, in bytes: what a phase wrote to it, per request, is a figure of the capacity model.
wal_now() { sql -c "SELECT pg_current_wal_lsn() - '0/0'"; }
# cpu_figures NAME [REQUESTS]: CPU seconds per 1,000 of REQUESTS (default: the phase's answers as expected).
cpu_figures() {
  local name=$1 good=${2:-$((${fig[$1.requests]} - ${fig[$1.failed]} - ${fig[$1.unexpected]}))} before after i
  read -r -a before <<<"${fig[$name.cpu_mark]}"
  read -r -a after <<<"$(cpu_now)"
  for i in "${!cpu_parts[@]}"; do
    fig[$name.cpu_${cpu_parts[$i]}]=$(calc "(${after[$i]} - ${before[$i]}) / $hz / ($good > 0 ? $good : 1) * 1000" 2)
  done
  fig[$name.wal_kb]=$(calc "($(wal_now) - ${fig[$name.wal_mark]}) / 1024 / ($good > 0 ? $good : 1)" 2)
}
rss_mb() { ps -o rss= -p "$app" | awk '{ printf "%d", $1 / 1024 }'; }
# The service's own gauge of the oldest undelivered event's age, if it has one (n/a otherwise).
event_lag() {
  curl -sf -u ops:ops "$base/q/metrics" |
    awk '/^orders_events_lag_seconds[{ ]/ { seen = 1; if ($NF > max) max = $NF } END { print seen ? max + 0 : "n/a" }'
}

# Samples every second, while a phase and its drain run: RSS (MB), event lag (s), outbox backlog
# (a curl and a psql a second: light beside the load).
start_sampler() {
  (
    set +e
    while :; do
      echo "$(rss_mb) $(event_lag) $(pending_events)"
      sleep 1
    done
  ) >"$1" 2>/dev/null &
  sampler=$!
}

stop_sampler() {
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  sampler=""
}

# Seconds until the outbox holds no PENDING row: every event of the phase has been delivered.
# Counting only PENDING rows in outbox holds whether delivered rows stay there or move elsewhere.
wait_drained() {
  local began waited; began=$(now_ns)
  waited=0
  while [ "$(pending_events)" != 0 ]; do
    if (($(now_ns) - began > 600 * 10 ** 9)); then
      waited=600
      break
    fi
    sleep 0.2
    waited=$(calc "($(now_ns) - $began) / 1e9" 1)
  done
  vacuum_service
  echo "$waited"
}

# VACUUM (ANALYZE) of the service's tables. This machine's PostgreSQL runs without autovacuum, which a
# deployment's never would: the outbox's delivered rows and the products' reservations leave dead row
# versions that every later statement would step over, so that each phase would pay for the ones before.
# It runs after each drain, before the phase's CPU is read, so the phase pays for its own cleaning up.
vacuum_service() {
  local tables
  tables=$(app_sql -c "SELECT string_agg(format('%I.%I', schemaname, relname), ', ') FROM pg_stat_user_tables WHERE schemaname = '$run'")
  [ -z "$tables" ] || app_sql -c "VACUUM (ANALYZE) $tables" >/dev/null
}

# Keeps the key=value pairs of a wrk script's RESULT line as figures <name>.<key>.
keep_result() {
  local kv
  for kv in ${2#RESULT }; do fig[$1.${kv%%=*}]=${kv#*=}; done
}

# Runs a wrk script against the service: run_wrk NAME SCRIPT CONNECTIONS SECONDS USER [VAR=value...]
run_wrk() {
  wrk_into "$@"
  wrk_result "$1"
}

# Runs wrk with $threads threads (or WRK_THREADS, set on the call) into $work/NAME.wrk, without
# reading its result: wrk_into NAME SCRIPT CONNECTIONS SECONDS USER [VAR=value...]
wrk_into() {
  local name=$1 script=$2 conns=$3 duration=$4 user=$5 t=${WRK_THREADS:-$threads}
  shift 5
  env BENCH_AUTH="Basic $(printf %s "$user" | base64)" BENCH_THREADS=$t "$@" \
    wrk -t "$t" -c "$conns" -d "${duration}s" --timeout 30s --latency -s "$bench/wrk/$script.lua" "$base" \
    >"$work/$name.wrk"
}

# Keeps the RESULT line of $work/NAME.wrk as figures of NAME.
wrk_result() {
  grep -q '^RESULT ' "$work/$1.wrk" || { cat "$work/$1.wrk"; die "wrk for $1 printed no result"; }
  keep_result "$1" "$(grep '^RESULT ' "$work/$1.wrk")"
}

# Updates the peak RSS, the largest event lag and backlog from a phase's samples.
summarise_samples() {
  local name=$1 file=$work/$1.samples
  fig[$name.rss]=$(awk '$1 > max { max = $1 } END { print max + 0 }' "$file")
  fig[$name.lag]=$(awk '$2 != "n/a" { seen = 1; if ($2 > max) max = $2 } END { print seen ? max + 0 : "n/a" }' "$file")
  fig[$name.backlog]=$(awk '$3 > max { max = $3 } END { print max + 0 }' "$file")
  if ((${fig[$name.rss]} > ${fig[rss.peak]:-0})); then fig[rss.peak]=${fig[$name.rss]}; fi
}

report() {
  local name=$1
  printf '%s  %-18s load %6s/s  sustained %6s/s  p50 %7s ms  p99 %8s ms  drain %4s s  failed %s, ran out %s, unexpected %s%s\n' \
    "$(date +%T)" "$name" "${fig[$name.rate]}" "${fig[$name.sustained]}" "${fig[$name.p50_ms]}" "${fig[$name.p99_ms]}" \
    "${fig[$name.drain]:-0}" "${fig[$name.failed]:-0}" "${fig[$name.exhausted]:-0}" "${fig[$name.unexpected]:-0}" \
    "${fig[$name.cpu_app]:+  CPU s/1000: service ${fig[$name.cpu_app]}, PostgreSQL ${fig[$name.cpu_pg]}, Redis ${fig[$name.cpu_redis]}, provider ${fig[$name.cpu_provider]}}"
}

# The latency of one request, sent by hey at a fixed offered rate (16 workers, each at 1/16 of it):
# fixed_rate NAME RATE METHOD PATH [hey options]. hey drops a worker's turn while its request is
# still out rather than queueing it, so the rate is half what wrk reached and the p99 stays honest.
fixed_rate() {
  local name=$1 rate=$2 method=$3 path=$4 out
  shift 4
  out=$work/$name.hey
  hey -z "${seconds}s" -c 16 -q "$(calc "$rate / 16" 3)" -m "$method" "$@" "$base$path" >"$out"
  fig[$name.offered]=$rate
  fig[$name.rate]=$(awk '/Requests\/sec/ { printf "%d", $2 }' "$out")
  fig[$name.p50_ms]=$(awk '/ 50% in / { printf "%.2f", $3 * 1000 }' "$out")
  fig[$name.p99_ms]=$(awk '/ 99% in / { printf "%.2f", $3 * 1000 }' "$out")
  fig[$name.failed]=$(awk '/Status code distribution/ { part = "status"; next } /Error distribution/ { part = "error"; next }
    part && /^ *\[[0-9]+\]/ { value = $1; gsub(/[][]/, "", value); if (part == "error") n += value; else if (value !~ /^2/) n += $2 }
    END { print n + 0 }' "$out")
  log "$name: offered $rate/s, answered ${fig[$name.rate]}/s, p50 ${fig[$name.p50_ms]} ms, p99 ${fig[$name.p99_ms]} ms, not 2xx ${fig[$name.failed]}"
}

# One measured phase of the service: load for $seconds, then the wait until its events have left the
# outbox. rate counts the answers as expected per second of load; sustained counts them over load and
# drain together, the figure the targets use. app_phase NAME SCRIPT CONNECTIONS USER [VAR=value...]
app_phase() {
  local name=$1 script=$2 conns=$3 user=$4
  shift 4
  cpu_mark "$name"
  start_sampler "$work/$name.samples"
  profile start "$name"
  run_wrk "$name" "$script" "$conns" "$seconds" "$user" "$@"
  fig[$name.drain]=$(wait_drained)
  profile stop "$name"
  stop_sampler
  rate_figures "$name"
  cpu_figures "$name"
  summarise_samples "$name"
  report "$name"
}

# rate: the answers as expected per second of load; sustained: the same over load and drain together.
rate_figures() {
  local good=$((${fig[$1.requests]} - ${fig[$1.failed]} - ${fig[$1.unexpected]}))
  fig[$1.rate]=$(calc "$good / ${fig[$1.seconds]}")
  fig[$1.sustained]=$(calc "$good / (${fig[$1.seconds]} + ${fig[$1.drain]})")
}

# p50 and p99 in ms of latencies in µs, one a line.
percentiles() {
  sort -n | awk '{ v[NR] = $1 } END { printf "%.2f %.2f\n", v[int(NR * 0.50) + 1] / 1000, v[int(NR * 0.99) + 1] / 1000 }'
}

# pgbench on the raw schema: transactions/s, and p50/p99 from its per-transaction log.
# raw_pgbench NAME CONNECTIONS SCRIPT [SCHEMA (default the raw one) [pgbench options...]]
raw_pgbench() {
  local name=$1 conns=$2 script=$3 schema=${4:-$raw} p50 p99
  PGOPTIONS="-c search_path=$schema" pgbench -h 127.0.0.1 -U root -n -c "$conns" -j "$threads" -T "$seconds" \
    -l --log-prefix="$work/$name.log" -f "$script" "${@:5}" test >"$work/$name.pgbench" 2>&1 ||
    { cat "$work/$name.pgbench"; die "pgbench $name"; }
  fig[$name.rate]=$(awk '/^tps = / { printf "%d", $3; exit }' "$work/$name.pgbench")
  fig[$name.sustained]=${fig[$name.rate]}
  fig[$name.failed]=$(awk '/number of failed transactions/ { print $5; exit }' "$work/$name.pgbench")
  read -r p50 p99 < <(cat "$work/$name.log".* | awk '{ print $3 }' | percentiles)
  fig[$name.p50_ms]=$p50 fig[$name.p99_ms]=$p99
  rm -f "$work/$name.log".*
}

# The service's order tables copied empty (with their indexes, constraints and the foreign keys
# between them) into the raw schema, so pgbench writes what the service writes.
prepare_raw_schema() {
  sql <<SQL
CREATE SCHEMA $raw;
CREATE TABLE $raw.orders (LIKE $run.orders INCLUDING ALL);
CREATE TABLE $raw.order_items (LIKE $run.order_items INCLUDING ALL);
CREATE TABLE $raw.order_history (LIKE $run.order_history INCLUDING ALL);
CREATE TABLE $raw.products (LIKE $run.products INCLUDING ALL);
CREATE TABLE $raw.payments (LIKE $run.payments INCLUDING ALL);
CREATE TABLE $raw.outbox (LIKE $run.outbox INCLUDING ALL);
CREATE TABLE $raw.idempotency_keys (LIKE $run.idempotency_keys INCLUDING ALL);
INSERT INTO $raw.products (sku, name, price, currency, active, on_hand) VALUES ('ABC-1', 'Notebook', 12.50, 'CNY', true, 1000000000);
INSERT INTO $raw.products (sku, name, price, currency, active, on_hand)
SELECT 'BENCH-' || lpad(n::text, 3, '0'), 'Benchmark product ' || n, 12.50, 'CNY', true, 100000000 FROM generate_series(1, 100) AS n;
CREATE SEQUENCE $raw.transition_seq;
SQL
  app_sql -c "SELECT format('ALTER TABLE %s ADD CONSTRAINT %I %s;', conrelid::regclass, conname, pg_get_constraintdef(oid))
              FROM pg_constraint WHERE contype = 'f' AND connamespace = '$run'::regnamespace
              AND conrelid::regclass::text IN ('orders', 'order_items', 'order_history', 'payments')
              AND confrelid::regclass::text IN ('orders', 'order_items', 'order_history')" | raw_sql
}

# The same order, item and reservation rows on tables with nothing but their primary keys (the items'
# is their unique key) and the order token's unique key (as the service's uq_orders_token_hash): no
# other index, no foreign key, no check. insert-order.sql and reserve-one-of-100.sql run on it as they
# are, so the gap to raw-create is what the service's other indexes, checks and keys cost.
prepare_minimal_schema() {
  sql <<SQL
CREATE SCHEMA $minimal;
CREATE TABLE $minimal.orders (id uuid PRIMARY KEY, customer varchar(255) NOT NULL, token_hash char(64) NOT NULL,
    request_fingerprint char(64) NOT NULL, status varchar(16) NOT NULL, currency char(3) NOT NULL, total_amount numeric(19, 4) NOT NULL,
    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, CONSTRAINT uq_orders_token_hash UNIQUE (token_hash));
CREATE TABLE $minimal.order_items (order_id uuid, line_no int, sku varchar(64) NOT NULL, quantity int NOT NULL,
    unit_price numeric(19, 4) NOT NULL, PRIMARY KEY (order_id, line_no));
CREATE TABLE $minimal.products (sku varchar(64) PRIMARY KEY, name varchar(200) NOT NULL, price numeric(19, 4) NOT NULL,
    currency char(3) NOT NULL, active boolean NOT NULL, on_hand int NOT NULL, reserved int NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now());
INSERT INTO $minimal.products (sku, name, price, currency, active, on_hand) SELECT sku, name, price, currency, active, on_hand FROM $raw.products;
SQL
}

# 500 orders the raw transition moved (one item and one history row each: a row more than the GET
# phase's created orders have, none fewer), in read_queue, for get-order.sql.
prepare_read_queue() {
  raw_sql <<SQL
DROP TABLE IF EXISTS read_queue;
CREATE TABLE read_queue AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM (SELECT id FROM orders WHERE status = 'paid' ORDER BY id LIMIT 500) AS paid;
ALTER TABLE read_queue ADD PRIMARY KEY (n);
ANALYZE read_queue;
SQL
  (($(raw_sql -c "SELECT count(*) FROM read_queue") == 500)) || die "fewer than 500 paid orders for the raw GET"
}

# Created orders for the raw transition, numbered in transition_queue (transition.sql takes them
# in turn). Tops up with insert-order.sql when the insert phases left fewer than needed.
prepare_transition_queue() { # ROWS
  local have
  have=$(raw_sql -c "SELECT count(*) FROM orders WHERE status = 'created'")
  if ((have < $1)); then
    PGOPTIONS="-c search_path=$raw" pgbench -h 127.0.0.1 -U root -n -c 8 -j "$threads" \
      -t $((($1 - have) / 8 + 1)) -f "$bench/insert-order.sql" test >/dev/null
  fi
  raw_sql <<SQL
DROP TABLE IF EXISTS transition_queue;
CREATE TABLE transition_queue AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM orders WHERE status = 'created';
ALTER TABLE transition_queue ADD PRIMARY KEY (n);
ANALYZE transition_queue;
ALTER SEQUENCE transition_seq RESTART WITH 1;
SQL
}

# Issued token records for redis-benchmark, named <prefix>{p:raw}:token:<12 digits> as its
# __rand_int__ fills them in. Claimed with a lease of 0 ms, every call takes a lapsed lease over and
# so runs the script's whole claiming path (read, checks, write), as a first claim does.
prepare_claim_records() {
  rcli EVAL "for i = 0, tonumber(ARGV[2]) - 1 do
               local key = ARGV[1] .. string.format('%012d', i)
               redis.call('HSET', key, 'state', 'issued', 'expiresAt', ARGV[3])
               redis.call('PEXPIRE', key, ARGV[4])
             end" 0 "$prefix{p:raw}:token:" 10000 $((($(date +%s) + 6 * 3600) * 1000)) $((6 * 3600 * 1000)) >/dev/null
  claim_sha=$(rcli SCRIPT LOAD "$(cat src/main/resources/redis/functions/claim-token.lua src/main/resources/redis/token-claim.lua)")
}

claim_benchmark() { # CONNECTIONS REQUESTS
  redis-benchmark -h 127.0.0.1 -p 6379 -c "$1" -n "$2" -r 10000 --threads "$threads" --csv \
    EVALSHA "$claim_sha" 1 "$prefix{p:raw}:token:__rand_int__" "$(printf '%064d' 0)" bench-claim 0 |
    tail -n 1 | tr -d '"' | awk -F, '{ print $2, $5, $7 }'
}

# redis-benchmark of the token claim script for about $seconds (its length is a request count,
# so a short first run sets it).
raw_claim() { # NAME CONNECTIONS
  local name=$1 rate p50 p99
  read -r rate p50 p99 < <(claim_benchmark "$2" 20000)
  read -r rate p50 p99 < <(claim_benchmark "$2" "$(calc "$rate * $seconds")")
  fig[$name.rate]=$(calc "$rate") fig[$name.sustained]=$(calc "$rate") fig[$name.p50_ms]=$p50 fig[$name.p99_ms]=$p99
  report "$name"
}

# The shared PostgreSQL must have room for the most pgbench clients and a few to spare for others;
# others' test runs come and go, so wait a while for it.
wait_for_connections() {
  local free waited=0
  while free=$(sql -c "SELECT current_setting('max_connections')::int - count(*) FROM pg_stat_activity") &&
    ((free < ${levels[-1]} + 8)); do
    ((waited < 300)) || die "PostgreSQL has had only $free free connections for 5 minutes; pgbench needs ${levels[-1]} + 8"
    ((waited % 30 == 0)) && log "waiting for ${levels[-1]} + 8 free PostgreSQL connections ($free free)"
    sleep 5
    waited=$((waited + 5))
  done
}

# pgbench of a script that takes the next created order of transition_queue in each transaction
# (transition.sql, pay.sql), on a queue of at least ROWS: raw_on_queue NAME CONNECTIONS SCRIPT ROWS
raw_on_queue() {
  prepare_transition_queue "$4"
  wait_for_connections
  raw_pgbench "$1" "$2" "$3"
  # Transactions past the end of the queue found no order and wrote nothing: they would flatter the figure.
  fig[$1.exhausted]=$(raw_sql -c "SELECT greatest(0, last_value - (SELECT count(*) FROM transition_queue)) FROM transition_seq")
  report "$1"
}

measure_raw_limits() {
  prepare_raw_schema
  prepare_minimal_schema
  prepare_claim_records
  { echo 'BEGIN;'; cat "$bench/insert-order.sql" "$bench/reserve-unit.sql"; echo 'COMMIT;'; } >"$work/insert-order-reserve.sql"
  { grep '^\\set' "$bench/reserve-one-of-100.sql"; echo 'BEGIN;'; cat "$bench/insert-order.sql"; grep -v '^\\set' "$bench/reserve-one-of-100.sql"
    echo 'COMMIT;'; } >"$work/insert-order-reserve-one-of-100.sql"
  local c
  for c in "${levels[@]}"; do
    wait_for_connections
    raw_pgbench "raw-insert.$c" "$c" "$bench/insert-order.sql"
    report "raw-insert.$c"
    raw_pgbench "raw-create.$c" "$c" "$work/insert-order-reserve-one-of-100.sql"
    report "raw-create.$c"
    raw_pgbench "raw-minimal.$c" "$c" "$work/insert-order-reserve-one-of-100.sql" "$minimal"
    report "raw-minimal.$c"
    raw_pgbench "raw-hot.$c" "$c" "$work/insert-order-reserve.sql"
    report "raw-hot.$c"
  done
  # A transition costs about what an insert does: twice the best insert rate is enough orders.
  local rates=() best
  for c in "${levels[@]}"; do rates+=("${fig[raw-insert.$c.rate]}"); done
  best=$(max "${rates[@]}")
  for c in "${levels[@]}"; do raw_on_queue "raw-transition.$c" "$c" "$bench/transition.sql" "$(calc "2 * $best * $seconds + 1000")"; done
  # A pay reads its order and claims its attempt, then commits the charge, transition, event and key:
  # costlier than a transition, so a queue of the transition's size is enough.
  for c in "${levels[@]}"; do raw_on_queue "raw-pay.$c" "$c" "$bench/pay.sql" "$(calc "2 * $best * $seconds + 1000")"; done
  # A GET's read is one prepared statement in the service (pgjdbc prepares it on the server), so here too.
  prepare_read_queue
  for c in "${levels[@]}"; do
    wait_for_connections
    raw_pgbench "raw-get.$c" "$c" "$bench/get-order.sql" "$raw" -M prepared
    report "raw-get.$c"
  done
  for c in "${levels[@]}"; do raw_claim "raw-claim.$c" "$c"; done
}

# ---------------------------------------------------------------------------------------------
# Preparing the service's phases

# Runs a preparing wrk script (not measured) until it has written COUNT lines into FILE: each wrk
# thread stops at its share (see wrk/common.lua), and wrk is ended once every thread has.
prepare() { # FILE COUNT SCRIPT USER CONNECTIONS
  local file=$1 count=$2 began t
  began=$(now_ns)
  rm -f "$file"*
  env BENCH_AUTH="Basic $(printf %s "$4" | base64)" BENCH_THREADS=$threads BENCH_OUTPUT="$file" BENCH_COUNT="$count" \
    wrk -t "$threads" -c "$5" -d 3600s --timeout 30s -s "$bench/wrk/$3.lua" "$base" >"$file.wrk" &
  loader=$!
  for ((t = 0; t < threads; t++)); do
    until [ -f "$file.$t.done" ]; do
      kill -0 "$loader" 2>/dev/null || die "$3: wrk ended early"
      (($(now_ns) - began < 600 * 10 ** 9)) || die "$3: $count lines took over 10 minutes"
      sleep 0.2
    done
  done
  kill -INT "$loader" 2>/dev/null || true
  wait "$loader" 2>/dev/null || true
  loader=""
  for ((t = 0; t < threads; t++)); do cat "$file.$t"; done >"$file"
  (($(wc -l <"$file") >= count)) || die "$3 wrote fewer than $count lines"
}

issue_tokens() { # FILE COUNT
  log "issuing $2 order tokens"
  prepare "$1" "$2" issue-tokens alice:alice "${levels[-1]}"
}

# Orders for the replay and GET phases, as "token orderId" lines. Bob's, so that the pay phases
# (alice's created orders) leave them as they are; one connection per wrk thread (see the script).
place_orders() { # COUNT FILE
  log "placing $1 orders for the replay and GET phases"
  prepare "$2" "$1" place-orders bob:bob "$threads"
}

# Tokens for one POST /orders phase: three times what the warm-up's request rate or the fastest
# creation so far would use, as a phase can run much faster than the last one on a busy machine.
# A phase that runs out anyway shows it as failures (see wrk/common.lua) and RESULTS.md as invalid.
tokens_needed() { calc "3 * ${fig[create.estimate]} * $seconds + 1000"; }

# ABC-1 starts with 1,000,000 units; staff restock it whenever a phase could sell more than is left.
ensure_stock() { # UNITS
  while (($(curl -sf -u ops:ops "$base/products/ABC-1" | jq -r .available) < $1)); do
    curl -sf -u ops:ops -X POST "$base/products/ABC-1/stock" -H 'Content-Type: application/json' \
      -d '{"delta":1000000,"reason":"benchmark restock"}' >/dev/null
  done
}

# Alice's orders still created, newest first: the pay phase pays each at most once.
unpaid_orders() { app_sql -c "SELECT id FROM orders WHERE customer = 'alice' AND status = 'created' ORDER BY id DESC" >"$1"; }

# One shared warm-up at the highest concurrency: first POST /orders alone (the costliest path, which
# a mixed warm-up reaches too seldom for the JIT to finish with it) for three times $warmup, in rounds
# of 20 s whose rates RESULTS.md lists (on two busy cores the JIT takes minutes: the rate climbs for
# about two and a half, then wanders by 10 to 20 % from round to round), then every measured path (see
# wrk/warmup.lua) for $warmup s. The last round's rate is the first guess of how many tokens a phase
# will use.
warm_up() {
  local round=20 spent=0 rates=() rate=1000
  log "warm-up: $((3 * warmup)) s of POST /orders, then ${warmup} s of every measured path, at ${levels[-1]} connections"
  while ((spent < 3 * warmup)); do
    issue_tokens "$work/tokens.warmup" "$(calc "3 * $rate * $round + 1000")"
    run_wrk warmup-create create "${levels[-1]}" "$round" alice:alice BENCH_INPUT="$work/tokens.warmup"
    rm -f "$work/tokens.warmup"*
    wait_drained >/dev/null
    rate=$(calc "${fig[warmup-create.requests]} / ${fig[warmup-create.seconds]}")
    rates+=("$rate") spent=$((spent + round))
  done
  fig[create.estimate]=$rate fig[warmup-create.spent]=$spent fig[warmup-create.rounds]=$(IFS=,; echo "${rates[*]}" | sed 's/,/, /g')
  run_wrk warmup warmup "${levels[-1]}" "$warmup" alice:alice
  wait_drained >/dev/null
  log "warm-up: POST /orders ${fig[warmup-create.rounds]}/s in its rounds; ${fig[warmup.unexpected]} unexpected answers in the mixed part"
}

# A POST /orders phase with freshly issued tokens, for the 100 products of products.sql in turn;
# with-key adds an Idempotency-Key to each request, hot orders ABC-1 only (a flash sale).
create_phase() { # NAME CONNECTIONS [with-key|hot]
  local name=$1 count
  count=$(tokens_needed)
  issue_tokens "$work/tokens.$name" "$count"
  local extra=()
  case ${3:-} in
    with-key) extra=("BENCH_KEYS=$run-$name-") ;;
    hot) ensure_stock "$count" && extra=(BENCH_HOT=1) ;;
  esac
  app_phase "$name" create "$2" alice:alice BENCH_INPUT="$work/tokens.$name" ${extra[@]+"${extra[@]}"}
  rm -f "$work/tokens.$name"*
  fig[create.estimate]=$(max "${fig[$name.rate]}" "${fig[create.estimate]}")
}

# One half of a POST /orders load that two wrk processes of one thread each share (two wrk threads in
# all, as in every other phase), in the background, with the tokens of $work/tokens.NAME:
# half_load NAME TARGET-BASE CONNECTIONS [VAR=value...]; await_halves waits for both.
half_load() {
  local name=$1 target=$2 conns=$3
  shift 3
  WRK_THREADS=1 base=$target wrk_into "$name" create "$conns" "$seconds" alice:alice BENCH_INPUT="$work/tokens.$name" "$@" &
  halves+=($!)
  loader="${halves[*]}"
}
await_halves() {
  wait "${halves[@]}"
  halves=() loader=""
}

# The answers as expected of one or more phases, together.
answered() {
  local name total=0
  for name in "$@"; do total=$((total + ${fig[$name.requests]} - ${fig[$name.failed]} - ${fig[$name.unexpected]})); done
  echo "$total"
}

# POST /orders without and with an Idempotency-Key at the same time, half the connections each, for
# $seconds: both meet the same moment of the machine (the JIT still at work, checkpoints, tables
# growing, other work), which alternating phases never quite give on two busy cores. The service's
# cores are shared out among the requests in flight, so each half completes in inverse proportion to
# what one of its requests costs: the ratio of the halves is what a key costs. NAME-A and NAME-B get
# the figures of each half; the drain after the load counts for both.
mixed_create_phases() { # NAME-A NAME-B CONNECTIONS (B with an Idempotency-Key)
  local a=$1 b=$2 half=$(($3 / 2)) name count part
  count=$(tokens_needed)
  issue_tokens "$work/tokens.$a" "$count"
  issue_tokens "$work/tokens.$b" "$count"
  cpu_mark "$a"
  start_sampler "$work/$a.samples"
  half_load "$a" "$base" "$half"
  half_load "$b" "$base" "$half" BENCH_KEYS="$run-$b-"
  await_halves
  fig[$a.drain]=$(wait_drained)
  stop_sampler
  for name in "$a" "$b"; do
    wrk_result "$name"
    fig[$name.drain]=${fig[$a.drain]}
    rate_figures "$name"
  done
  # The CPU of both halves, per 1,000 of their requests together.
  cpu_figures "$a" "$(answered "$a" "$b")"
  for part in "${cpu_parts[@]}"; do fig[$b.cpu_$part]=${fig[$a.cpu_$part]}; done
  summarise_samples "$a"
  fig[$b.rss]=${fig[$a.rss]} fig[$b.lag]=${fig[$a.lag]} fig[$b.backlog]=${fig[$a.backlog]}
  report "$a" && report "$b"
  rm -f "$work/tokens.$a"* "$work/tokens.$b"*
}

# POST /orders to two instances of the service on one schema and key space, as two pods of a deployment
# run (both with their outbox relays and jobs), half the connections each: the check of the capacity
# model of docs/benchmarks.md, which on these shared cores predicts what one instance serves, less what
# a second JVM costs. Its CPU is both instances' together.
two_instance_phase() { # CONNECTIONS
  local name=two.$1 half=$(($1 / 2)) port2 base2 cpu_before good part
  port2=$(free_port) base2=http://127.0.0.1:$port2
  launch_service "$port2" "$run" "$prefix" 5432 6379 "$work/second.log"
  second=$launched
  await_ready "$second" "$base2" "second instance"
  # Its JIT warmed as the first instance's was, on its own: POST /orders alone for twice the warm-up time.
  issue_tokens "$work/tokens.$name-warm" "$(calc "3 * ${fig[create.estimate]} * 2 * $warmup + 1000")"
  base=$base2 run_wrk "$name-warm" create "$half" "$((2 * warmup))" alice:alice BENCH_INPUT="$work/tokens.$name-warm"
  wait_drained >/dev/null
  issue_tokens "$work/tokens.$name-a" "$(tokens_needed)"
  issue_tokens "$work/tokens.$name-b" "$(tokens_needed)"
  cpu_mark "$name"
  cpu_before=$(ticks "$second")
  start_sampler "$work/$name.samples"
  half_load "$name-a" "$base" "$half"
  half_load "$name-b" "$base2" "$half"
  await_halves
  fig[$name.drain]=$(wait_drained)
  stop_sampler
  summarise_samples "$name"
  for part in a b; do wrk_result "$name-$part"; done
  good=$(answered "$name-a" "$name-b")
  cpu_figures "$name" "$good"
  fig[$name.cpu_app]=$(calc "${fig[$name.cpu_app]} + ($(ticks "$second") - $cpu_before) / $hz / ($good > 0 ? $good : 1) * 1000" 2)
  fig[$name.seconds]=${fig[$name-a.seconds]} fig[$name.requests]=$((${fig[$name-a.requests]} + ${fig[$name-b.requests]}))
  fig[$name.failed]=$((${fig[$name-a.failed]} + ${fig[$name-b.failed]})) fig[$name.unexpected]=$((${fig[$name-a.unexpected]} + ${fig[$name-b.unexpected]}))
  fig[$name.p50_ms]=$(max "${fig[$name-a.p50_ms]}" "${fig[$name-b.p50_ms]}") fig[$name.p99_ms]=$(max "${fig[$name-a.p99_ms]}" "${fig[$name-b.p99_ms]}")
  rate_figures "$name"
  report "$name"
  kill "$second" 2>/dev/null
  wait "$second" 2>/dev/null || true
  second=""
  rm -f "$work/tokens.$name"*
}

measure_service() { # CONNECTIONS
  local c=$1
  create_phase "create.$c" "$c"
  mixed_create_phases "mixed.$c" "key.$c" "$c"
  create_phase "hot.$c" "$c" hot
  app_phase "token.$c" same "$c" alice:alice BENCH_METHOD=POST BENCH_PATH=/orders/token
  app_phase "replay.$c" replay "$c" bob:bob BENCH_INPUT="$work/placed"
  app_phase "get.$c" get "$c" bob:bob BENCH_INPUT="$work/placed"
  app_phase "health.$c" same "$c" bob:bob BENCH_PATH=/q/health/live BENCH_ANONYMOUS=1
  unpaid_orders "$work/unpaid.$c"
  app_phase "pay.$c" pay "$c" alice:alice BENCH_INPUT="$work/unpaid.$c" BENCH_KEYS="$run-pay.$c-"
}

# GET, token and replay at half the rate wrk reached at 16 connections (see fixed_rate).
measure_fixed_rates() {
  local bob alice token id
  bob="Authorization: Basic $(printf bob:bob | base64)" alice="Authorization: Basic $(printf alice:alice | base64)"
  read -r token id <"$work/placed"
  fixed_rate fixed-get "$(calc "${fig[get.16.sustained]} / 2")" GET "/orders/$id" -H "$bob"
  fixed_rate fixed-token "$(calc "${fig[token.16.sustained]} / 2")" POST /orders/token -H "$alice"
  fixed_rate fixed-replay "$(calc "${fig[replay.16.sustained]} / 2")" POST /orders -H "$bob" -H "Order-Token: $token" \
    -T application/json -d "$(order_body)"
}

# $fill delivered orders with their items, by SQL copies of the service's own rows (fill-orders.sql).
fill_orders() {
  log "adding $fill orders with their items"
  app_sql -v rows="$fill" -f "$bench/fill-orders.sql" >/dev/null
  # Write the added pages out now, so that a checkpoint does not do it during the next phase.
  sql -c CHECKPOINT
}

# $fill live Idempotency-Key records: copies of a record the service keeps in Redis (fill-keys.lua),
# ten thousand per call so that the shared Redis is never blocked for long, and as many in PostgreSQL
# (fill-keys.sql), where the service keeps them too.
fill_keys() {
  local template sha first
  # A record as a keyed order leaves it (Redis learns an answer kept with its effect only when a retry asks).
  template=$(rcli --scan --pattern "$prefix*idempotency*" | head -n 1 || true)
  [ -n "$template" ] || die "found no Idempotency-Key record to copy"
  log "adding $fill live Idempotency-Keys like $template"
  sha=$(rcli SCRIPT LOAD "$(cat "$bench/fill-keys.lua")")
  for ((first = 0; first < fill; first += 10000)); do
    rcli EVALSHA "$sha" 1 "$template" "${template%:*}:" "$first" $((fill - first < 10000 ? fill - first : 10000)) >/dev/null
  done
  log "adding $fill live Idempotency-Keys to PostgreSQL"
  app_sql -v rows="$fill" -f "$bench/fill-keys.sql" >/dev/null
  sql -c CHECKPOINT
}

measure_full() { # CONNECTIONS
  create_phase "full.$1" "$1"
  mixed_create_phases "fullmixed.$1" "fullkey.$1" "$1"
}

# ---------------------------------------------------------------------------------------------
# Reporting

smoke_run() { ((seconds < 20 || warmup < 20 || fill < 1000000)); }
grouped() { printf '%d' "$1" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta'; } # 1000000 -> 1,000,000
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) printf "n/a"; else printf (a / b < 0.1 ? "%.3f" : "%.2f"), a / b }'; }
# verdict VALUE OP TARGET: yes or no, OP one of >= <= <
verdict() {
  if awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { exit !(v != "n/a" && ((op == ">=" && v + 0 >= t) || (op == "<=" && v + 0 <= t) || (op == "<" && v + 0 < t))) }'; then
    echo yes
  else
    echo no
  fi
}

# What makes a phase's figure untrustworthy, if anything.
flaws() {
  local name=$1 out=""
  ((${fig[$name.failed]:-0} == 0)) || out+="${fig[$name.failed]} failed requests; "
  [ "${fig[$name.unexpected_statuses]:-none}" = none ] || out+="the first statuses not expected: ${fig[$name.unexpected_statuses]}; "
  ((${fig[$name.exhausted]:-0} == 0)) || out+="ran out of prepared input ${fig[$name.exhausted]} times; "
  ((${fig[$name.unexpected]:-0} == 0)) || out+="${fig[$name.unexpected]} unexpected answers; "
  ((${fig[$name.socket_errors]:-0} == 0)) || out+="${fig[$name.socket_errors]} socket errors; "
  [ "${fig[$name.drain]:-0}" != 600 ] || out+="the outbox had not drained after 600 s; "
  echo "${out%; }"
}

# One table row: row FIGURE CONNECTIONS REQUESTS/S P50 P99 RATIO TARGET MET WHY
row() { printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"; }

limit_row() { # LABEL NAME
  row "$1" "${2##*.}" "${fig[$2.rate]}" "${fig[$2.p50_ms]}" "${fig[$2.p99_ms]}" "" "raw limit" "" "$(flaws "$2")"
}

# A figure of the service against its target ratio: ratio_row LABEL NAME BASE TARGET WHY-IF-MISSED [NOTE]
ratio_row() {
  local name=$2 base=$3 target=$4 why=$5 note=${6:-} value met flawed
  value=$(ratio "${fig[$name.sustained]}" "${fig[$base.sustained]}")
  met=$(verdict "$value" ">=" "$target")
  flawed=$(flaws "$name")
  if [ -n "$flawed" ]; then
    met=invalid why=$flawed
  elif [ "$met" = yes ]; then
    why=""
  fi
  why=$(printf '%s' "$why${why:+${note:+; }}$note")
  row "$1" "${name##*.}" "${fig[$name.sustained]}" "${fig[$name.p50_ms]}" "${fig[$name.p99_ms]}" "${value}x" ">= ${target}x" "$met" "$why"
}

drain_facts() { echo "${fig[$1.rate]}/s during the load, then the outbox drained in ${fig[$1.drain]} s (peak backlog ${fig[$1.backlog]})"; }

figures_table() {
  local c lag met large
  large="$(grouped "$fill") orders and keys"
  row "figure" "connections" "requests/s" "p50 ms" "p99 ms" "ratio" "target" "met" "why, where missed"
  row "---" "---" "---" "---" "---" "---" "---" "---" "---"
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: order + item insert (pgbench)" "raw-insert.$c"; done
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: order + item insert, then a unit reserved on one of 100 products (pgbench)" "raw-create.$c"; done
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: the same on minimal tables (primary and unique keys only) (pgbench)" "raw-minimal.$c"; done
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: order + item insert, then a unit reserved on one product (pgbench)" "raw-hot.$c"; done
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: transition UPDATE + history INSERT (pgbench)" "raw-transition.$c"; done
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: a pay's rows, order read and attempt claimed, then charge + transition + history + event + key (pgbench)" "raw-pay.$c"; done
  for c in "${levels[@]}"; do limit_row "PostgreSQL alone: a GET's read, order + items + history by id, prepared (pgbench)" "raw-get.$c"; done
  for c in "${levels[@]}"; do limit_row "Redis alone: token claim script (redis-benchmark)" "raw-claim.$c"; done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders sustained, events delivered, over 100 products (vs the raw insert + reservation)" "create.$c" "raw-create.$c" 0.5 \
      "$(drain_facts "create.$c"); beyond the raw rows the service runs its token scripts, reserves stock, writes the event, and speaks HTTP and JSON"
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders sustained, events delivered, over 100 products (vs the same rows on minimal tables)" "create.$c" "raw-minimal.$c" 0.3 \
      "$(drain_facts "create.$c"); the service's tables carry the indexes, checks and foreign keys its queries and rules need"
  done
  for c in "${levels[@]}"; do
    row "Order events: backlog back to zero after the POST /orders load" "$c" "" "" "" "${fig[create.$c.drain]} s" "<= 5 s" \
      "$(verdict "${fig[create.$c.drain]}" "<=" 5)" "peak backlog ${fig[create.$c.backlog]} events"
  done
  for c in "${levels[@]}"; do
    lag=${fig[create.$c.lag]}
    if [ "$lag" = n/a ]; then
      row "Order events: lag at that load (largest 1 s sample)" "$c" "" "" "" "n/a" "< 2 s" "n/a" "the service does not expose orders_events_lag_seconds"
    else
      met=$(verdict "$lag" "<" 2)
      row "Order events: lag at that load (largest 1 s sample)" "$c" "" "" "" "$lag s" "< 2 s" "$met" ""
    fi
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders with an Idempotency-Key, sustained, beside as many without at the same time (vs those)" "key.$c" "mixed.$c" 0.9 \
      "$(drain_facts "key.$c"); p50 ${fig[key.$c.p50_ms]} ms with a key, ${fig[mixed.$c.p50_ms]} ms without" \
      "$((c / 2)) connections each; those without: ${fig[mixed.$c.sustained]}/s"
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders for one product (a flash sale), sustained (vs its raw insert + reservation)" "hot.$c" "raw-hot.$c" 0.6 \
      "$(drain_facts "hot.$c"); every order locks the product's row from its reservation to its commit, in PostgreSQL alone too"
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders/token (vs the raw token claim script)" "token.$c" "raw-claim.$c" 0.3 \
      "p50 ${fig[token.$c.p50_ms]} ms; beyond the script a token request signs the caller in, runs the request filters and speaks HTTP and JSON"
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders/{id}/pay sustained, provider in another process answering at once (vs the raw pay rows)" "pay.$c" "raw-pay.$c" 0.4 \
      "$(drain_facts "pay.$c"); beyond the raw rows a pay checks its key, calls the provider over HTTP through its retries and timeout, and answers the order as JSON"
  done
  for c in "${levels[@]}"; do
    ratio_row "Replay of POST /orders, same token and body (vs GET)" "replay.$c" "get.$c" 1.5 \
      "p50 ${fig[replay.$c.p50_ms]} ms for a replay, ${fig[get.$c.p50_ms]} ms for a GET"
  done
  for c in "${levels[@]}"; do
    ratio_row "GET /orders/{id}, signed in (vs the raw read of the order, items and history)" "get.$c" "raw-get.$c" 0.5 \
      "p50 ${fig[get.$c.p50_ms]} ms; beyond the raw read a GET signs the caller in, hands the request to a worker thread, maps the rows and writes JSON"
  done
  for c in "${levels[@]}"; do
    ratio_row "GET /orders/{id}, signed in (vs GET /q/health/live)" "get.$c" "health.$c" 0.3 \
      "p50 ${fig[get.$c.p50_ms]} ms, health ${fig[health.$c.p50_ms]} ms; beyond the health check a GET signs the caller in and reads the order, its items and history"
  done
  for c in "${levels[@]}"; do
    row "GET /q/health/live" "$c" "${fig[health.$c.sustained]}" "${fig[health.$c.p50_ms]}" "${fig[health.$c.p99_ms]}" "" "" "" "$(flaws "health.$c")"
  done
  local name label
  for name in get token replay; do
    case $name in
      get) label="GET /orders/{id}" ;;
      token) label="POST /orders/token" ;;
      replay) label="Replay of POST /orders" ;;
    esac
    row "$label at a fixed offered rate of ${fig[fixed-$name.offered]}/s (hey, 16 workers)" "16" "${fig[fixed-$name.rate]}" \
      "${fig[fixed-$name.p50_ms]}" "${fig[fixed-$name.p99_ms]}" "" "" "" "$( ((${fig[fixed-$name.failed]} == 0)) || echo "${fig[fixed-$name.failed]} answers not 2xx")"
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders beside $large, sustained (vs near-empty)" "full.$c" "create.$c" 0.9 \
      "$(drain_facts "full.$c"); p50 ${fig[full.$c.p50_ms]} ms, near-empty ${fig[create.$c.p50_ms]} ms"
  done
  for c in "${levels[@]}"; do
    ratio_row "POST /orders with an Idempotency-Key beside $large, sustained, beside as many without (vs near-empty)" "fullkey.$c" "key.$c" 0.9 \
      "$(drain_facts "fullkey.$c"); p50 ${fig[fullkey.$c.p50_ms]} ms, near-empty ${fig[key.$c.p50_ms]} ms" \
      "$((c / 2)) connections each; those without: ${fig[fullmixed.$c.sustained]}/s"
  done
  c=${levels[-1]}
  ratio_row "POST /orders to two instances on the same cores, half the connections each (vs one instance)" "two.$c" "create.$c" 0.9 \
    "$(drain_facts "two.$c"); both instances' CPU per order: ${fig[two.$c.cpu_app]} ms, one instance's: ${fig[create.$c.cpu_app]} ms"
  budget_rows
  row "Packaged start, launch to /q/health/ready" "" "" "" "" "${fig[start.seconds]} s" "<= 3 s" \
    "$(verdict "${fig[start.seconds]}" "<=" 3)" "includes Flyway creating the schema; with the AOT cache of ops/aot-cache.sh"
  row "Service RSS under load (largest 1 s sample)" "" "" "" "" "${fig[rss.peak]} MB" "<= 300 MB" \
    "$(verdict "${fig[rss.peak]}" "<=" 300)" "Java $java_version; JVM options: $java_opts"
}

# The service's CPU per request (ms: its CPU seconds per 1,000 requests) and each request's own round
# trips, against the budgets of issue 43.
budget_rows() {
  local label name budget c
  while IFS='|' read -r label name budget; do
    for c in "${levels[@]}"; do
      row "Service CPU per request: $label (ms, over load and drain)" "$c" "" "" "" "${fig[$name.$c.cpu_app]}" "<= $budget" \
        "$(verdict "${fig[$name.$c.cpu_app]}" "<=" "$budget")" "$(profile_note "$name.$c")"
    done
  done <<ROWS
POST /orders|create|0.6
pay|pay|1.2
GET /orders/{id}|get|0.1
POST /orders/token|token|0.08
ROWS
  while IFS='|' read -r label name server budget; do
    row "Round trips per request: $label to ${server/pg/PostgreSQL} (its own, background work off, one at a time)" "1" "" "" "" "${fig[trips.$name.${server,,}]}" "<= $budget" \
      "$(verdict "${fig[trips.$name.${server,,}]}" "<=" "$budget")" ""
  done <<ROWS
POST /orders|order|pg|4
POST /orders|order|Redis|2
pay|pay|pg|8
ROWS
}

# Where a profiled phase's CPU went, when BENCH_PROFILE asked for profiles: its three costliest parts.
profile_note() {
  [ -n "$profiler" ] && [ -f "$BENCH_PROFILE/$1.collapsed" ] || return 0
  echo "profile: $(python3 "$bench/profile.py" "$BENCH_PROFILE/$1.collapsed" 0 | awk '/under each part/ { on = 1; next } on && NF { sub(/^ +/, ""); print } /^$/ && on { exit }' | head -n 3 | paste -sd ';' | sed 's/;/; /g')"
}

# CPU seconds per 1,000 requests answered as expected, over each phase's load and drain.
cpu_table() {
  local name label c
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "phase" "connections" "service" "PostgreSQL" "Redis" "provider" "all four" "WAL kB"
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "---" "---" "---" "---" "---" "---" "---" "---"
  while IFS='|' read -r label name; do
    for c in "${levels[@]}"; do
      [ -n "${fig[$name.$c.cpu_app]:-}" ] || continue
      printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$c" "${fig[$name.$c.cpu_app]}" "${fig[$name.$c.cpu_pg]}" \
        "${fig[$name.$c.cpu_redis]}" "${fig[$name.$c.cpu_provider]}" \
        "$(calc "${fig[$name.$c.cpu_app]} + ${fig[$name.$c.cpu_pg]} + ${fig[$name.$c.cpu_redis]} + ${fig[$name.$c.cpu_provider]}" 2)" \
        "${fig[$name.$c.wal_kb]}"
    done
  done <<ROWS
POST /orders|create
POST /orders, with and without a key|mixed
POST /orders, one product|hot
POST /orders/token|token
Replay of POST /orders|replay
GET /orders/{id}|get
GET /q/health/live|health
pay|pay
POST /orders to two instances (both instances' CPU)|two
ROWS
}

machine() {
  printf '%s cores, %s, %s, %s GiB memory' "$(nproc)" "$(uname -m)" \
    "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" "$(awk '/^MemTotal/ { printf "%d", $2 / 1048576 }' /proc/meminfo)"
}

write_results() {
  local smoke=""
  if smoke_run; then
    smoke="**Smoke run**: short phases that prove the harness works end to end; these are not figures to quote."
  fi
  {
    echo "# Benchmark: the service beside its raw limits"
    echo
    echo "Written by \`ops/bench/run.sh $seconds $warmup $fill\`; run it again rather than editing this file."
    echo
    [ -z "$smoke" ] || echo "$smoke"
    [ -z "${BENCH_NOTE:-}" ] || echo "$BENCH_NOTE"
    [ -z "$smoke${BENCH_NOTE:-}" ] || echo
    echo "- Machine: $(machine); load average $load_before when the run began (other work shares the cores)."
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); service at commit $service_commit, packaged jar, \`QUARKUS_PROFILE=demo\`."
    echo "- Each phase: $seconds s at 16 and at 64 connections, after one shared warm-up: POST /orders for ${fig[warmup-create.spent]} s (${fig[warmup-create.rounds]} requests/s in its 20 s rounds), then $warmup s of every measured path; wrk, pgbench and redis-benchmark use $threads threads on the same machine as the service, PostgreSQL 15 and Redis 7."
    echo
    figures_table
    echo
    echo "CPU seconds per 1,000 requests answered as expected (ms per request), over each phase's load and drain (PostgreSQL and Redis are the machine's shared servers: quiet, but for this run; the provider is nginx), and what PostgreSQL wrote to its write-ahead log per request:"
    echo
    cpu_table
    echo
    echo "Round trips, counted by \`trips.py\` between a second instance of the service and the servers. The request's own round trips (background work off): one request at a time, less what the idle instance made meanwhile (${fig[trips.idle.pg]} to PostgreSQL and ${fig[trips.idle.redis]} to Redis a second). Delivering its events, per event: the same instance started again, background work on, delivering the ${fig[trips.deliver.events]:-n/a} events those requests left PENDING as one backlog, less its idle rate (${fig[trips.deliver.idle_pg]:-n/a} and ${fig[trips.deliver.idle_redis]:-n/a} a second):"
    echo
    echo "| round trips | PostgreSQL | Redis |"
    echo "| --- | --- | --- |"
    echo "| POST /orders/token: the request's own round trips (background work off) | ${fig[trips.token.pg]} | ${fig[trips.token.redis]} |"
    echo "| POST /orders: the request's own round trips (background work off) | ${fig[trips.order.pg]} | ${fig[trips.order.redis]} |"
    echo "| POST /orders/{id}/pay, with an Idempotency-Key: the request's own round trips (background work off) | ${fig[trips.pay.pg]} | ${fig[trips.pay.redis]} |"
    echo "| delivering its events, per event (an order's and a pay's, in the relay's batches) | ${fig[trips.deliver.pg]:-n/a} | ${fig[trips.deliver.redis]:-n/a} |"
    echo
    echo "![Throughput and p99 latency per figure beside its raw limit](results.png)"
    echo
    cat <<'NOTES'
## How it is measured
- The service's *requests/s* is **sustained**: the answers as expected, divided by the load time plus
  the time the outbox then took to hold no PENDING row (every order event delivered). Replays and GETs
  write no events. Event lag is the service's `orders_events_lag_seconds` gauge when it has one,
  sampled each second during the load and the drain.
- Raw limits run first, on the service's own tables copied empty into a second schema: pgbench runs
  `insert-order.sql` (order + item) and `transition.sql` (the guarded UPDATE from created to paid +
  the history row, each on its own prepared order), each one statement, and `insert-order.sql` then
  `reserve-one-of-100.sql` (a unit reserved on one of 100 products, as POST /orders spreads its orders)
  or `reserve-unit.sql` (on one product, as in a flash sale) in one transaction, the first also on
  minimal tables (primary keys and the order token's unique key, nothing else); `pay.sql` does a pay's
  own rows in its two transactions (the order read and the attempt claimed, each alone; then the charge,
  the guarded transition with its history and event, and the key's answer, in one); `get-order.sql`
  reads an order with its items and history by id, prepared, as the service's GET does; redis-benchmark
  calls the service's `token-claim.lua` by EVALSHA on issued token records. pgbench's p50/p99 come from
  its per-transaction log.
- CPU per 1,000 requests: the clock ticks of the service's process, of PostgreSQL (the postmaster with
  its ended backends, and the live ones), of Redis and of the provider, from before a phase's load to
  the end of its drain, divided by its answers as expected. The once-a-second sampler (a curl of the
  service's metrics and a count in PostgreSQL) is in it.
- Fixed offered rate: hey sends the request from 16 workers at half the rate wrk reached at 16
  connections. hey skips a worker's turn while its last request is out rather than queueing it, which
  at half the capacity it seldom has to.
- Pay calls the payment provider in a process of its own: nginx (`provider/nginx.conf`), one process,
  answering every charge at once as succeeded with a fixed body, so that the figure is the service's own
  cost; its CPU is the table's provider column. Reconciliation is off, as that provider lists no charges.
- Round trips are each request's own: the counted instance runs with its outbox relay and scheduled
  jobs off, as `RoundTripBudgetTest` counts them. Delivering the events those requests wrote is counted
  apart, per event: the instance is started again on the same schema with its relay on, and once it is
  ready and idle the events are made due; the count runs until none is PENDING, less its idle rate.
  They leave as one backlog, in the relay's full batches: an event that leaves in a smaller batch, as
  under a lighter load, takes a larger share of its batch's round trips.
- With `BENCH_PROFILE=DIR`, async-profiler samples the service's CPU in each phase into
  `DIR/PHASE.collapsed` (`profile.py` summarises one), and the budget rows name the costliest parts of
  the stack; such a run's figures carry the profiler's own cost.
- POST /orders takes a fresh one-time token per request, issued in bulk before the phase (not timed)
  and read by the wrk script; the body is `{"currency":"CNY","items":[{"sku":"BENCH-001","quantity":1}]}`
  with the 100 products of `products.sql` in turn, and always ABC-1 in the flash sale.
  The pay phase pays alice's created orders, each once, with its own Idempotency-Key. Replay and GET
  use 500 orders placed by bob, replayed and read over and over.
- POST /orders with an Idempotency-Key is measured beside POST /orders without one, at the same
  time, half the connections each (and again beside the large schema): both meet the same moment of
  the machine, and as the service's cores are shared out among the requests in flight, each half
  completes in inverse proportion to what one of its requests costs. Phases one after the other
  differed by more than a key costs: on two busy cores the JIT, checkpoints and the tables' growth
  move the service's pace by 10 to 20 % from one 20 s stretch to the next.
- One warm-up at 64 connections before any phase: POST /orders alone for three times the warm-up time,
  in 20 s rounds (the JIT takes minutes on two busy cores), then `wrk/warmup.lua` cycling every
  measured path (token, order with and without a key, replay, GET, pay) for the warm-up time.
NOTES
    echo "- The large schema: $(grouped "$fill") delivered orders with their items, added by SQL as copies of an"
    echo "  order the service stored (\`fill-orders.sql\`, then ANALYZE, as autovacuum is off on this server),"
    echo "  and $(grouped "$fill") live Idempotency-Key records, copies of one the service keeps in Redis (\`fill-keys.lua\`) and of an answer of POST /orders in PostgreSQL (\`fill-keys.sql\`)."
  } >"$results/RESULTS.md"
}

# The chart's data: per figure, the service at each concurrency beside its raw limit, then p99s.
write_chart_data() {
  local label name base c
  while IFS='|' read -r label name base; do
    printf '"%s"' "$label"
    for c in "${levels[@]}"; do printf ' %s' "${fig[$name.$c.sustained]}"; done
    for c in "${levels[@]}"; do printf ' %s' "${fig[$base.$c.rate]:--}"; done
    for c in "${levels[@]}"; do printf ' %s' "${fig[$name.$c.p99_ms]}"; done
    for c in "${levels[@]}"; do printf ' %s' "${fig[$base.$c.p99_ms]:--}"; done
    echo
  done <<ROWS
POST /orders|create|raw-create
POST /orders, one product|hot|raw-hot
POST /orders ($1)|full|raw-create
POST /orders/token|token|raw-claim
pay|pay|raw-pay
replay POST /orders|replay|raw-claim
GET /orders/{id}|get|raw-get
ROWS
}

draw_chart() {
  local size heading
  size=$(awk -v n="$fill" 'BEGIN { if (n % 1000000 == 0) printf "%dM", n / 1e6; else if (n % 1000 == 0) printf "%dk", n / 1e3; else print n }')
  write_chart_data "$size" >"$work/chart.dat"
  heading="$(nproc) cores $(uname -m), $(date -u +%Y-%m-%d): the service at 16 and 64 connections beside its raw limits"
  if smoke_run; then heading="SMOKE RUN (short phases, figures not to quote) - $heading"; fi
  gnuplot -e "data='$work/chart.dat'; out='$results/results.png'; heading='$heading'" "$bench/chart.gp"
}

# ---------------------------------------------------------------------------------------------

# The figures to quote come from a quiet machine: above a load average of 1.0 other work takes the
# cores the service would have, and the run is refused before it starts. A smoke run goes on, as its
# figures are not quoted, and writes only to its working directory.
check_quiet() {
  local load=${load_before%% *}
  if awk -v l="$load" 'BEGIN { exit !(l > 1.0) }'; then
    smoke_run || die "the load average is $load_before as the run starts (above 1.0 in its last minute): other work would share the cores with the service and its figures would not be this machine's. RESULTS.md is left as it is; run again once \`uptime\` shows it below 1.0."
    log "the load average is $load_before: a smoke run goes on"
  fi
}

main() {
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  check_quiet
  results=$bench
  if smoke_run; then results=$work; fi
  pg_pid=$(listener 5432) redis_pid=$(listener 6379)
  [ -n "$pg_pid" ] && [ -n "$redis_pid" ] || die "no PostgreSQL on 127.0.0.1:5432 or no Redis on 127.0.0.1:6379 of this machine"
  ensure_tools
  find_java
  java_version=$("$java" -version 2>&1 | sed -n '1s/.*version "\([^"]*\)".*/\1/p')
  build_service
  prepare_profiler
  # What is measured is the tree as it is now, built or not: edits made while the run goes on are not in it.
  service_commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml || echo ' with local changes')"
  # The service first, on a quiet machine, so that its start is timed alone; it is told the provider's port.
  provider_port=$(free_port)
  start_service
  start_provider
  # Raw limits first, while the service is idle and its connection pool small: 64 pgbench clients
  # and the pool must fit in PostgreSQL's max_connections together.
  measure_raw_limits
  warm_up
  place_orders 500 "$work/placed"
  local c
  for c in "${levels[@]}"; do measure_service "$c"; done
  two_instance_phase "${levels[-1]}"
  measure_fixed_rates
  count_round_trips
  fill_orders
  fill_keys
  for c in "${levels[@]}"; do measure_full "$c"; done
  write_results
  draw_chart
  if smoke_run; then
    log "a smoke run: its figures are not quoted, so RESULTS.md is left as it is"
    sed -n '/^| figure/,$p' "$results/RESULTS.md" | sed '/^!\[/,$d'
  else
    log "wrote $bench/RESULTS.md and $bench/results.png"
    sed -n '/^| figure/,/^$/p' "$bench/RESULTS.md"
  fi
}

main
