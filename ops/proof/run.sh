#!/usr/bin/env bash
# The proofs, long versions, each on private servers started here and removed afterwards:
#   faults    (the default) three packaged instances of the service on a private PostgreSQL 15 and a
#             private Redis, customers shopping on all of them while Redis restarts empty, PostgreSQL
#             restarts, instances die by kill -9 (one of them the outbox relay) and Redis stalls past the
#             leases; each fault three times. Writes ops/proof/RESULTS.md.
#   failover  the same instances on a Redis Cluster (3 masters, 3 replicas) and a pg_auto_failover
#             formation (monitor, primary, synchronous standby), while a Redis master is killed, the slot
#             of an order-event stream moves, PostgreSQL switches over and its primary's node is killed
#             whole; each three times. Needs pg_autoctl (apt-get install postgresql-15-auto-failover).
#             Writes ops/proof/RESULTS-failover.md.
#   soak      one packaged instance as deployed under the mixed workload (tokens, orders and their replays, reads, pays,
#             shipments, cancels with refunds, orders left to expire, the web checkout) at half the rate it serves, for
#             an hour, sampling memory, threads, open files, connections, table sizes, Redis and each request's p99
#             every 10 s. Needs gnuplot (apt-get install gnuplot-nox). Writes ops/proof/RESULTS-soak.md and
#             ops/proof/soak.png.
#   overload  one packaged instance as deployed; for POST /orders and for pay in turn, its capacity at 16 connections,
#             then three times that rate offered at a fixed pace for 30 s, then half of it: goodput, the p99 of what
#             was taken, how fast refusals came, how soon latency was back to normal, and the audit (nothing lost,
#             doubled or half-done). Writes ops/proof/RESULTS-overload.md.
#
# Usage: ops/proof/run.sh [faults|failover|soak|overload]   (faults: about 17 minutes on a 2-core machine; soak: about 65;
#        overload: about 6)
# The short versions run in every ./mvnw verify (faults) and in .ci/run (failover, overload); see ops/proof/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."

proof=${1:-faults}
case "$proof" in
  faults) test=FaultsIT results=ops/proof/RESULTS.md title="Proof under faults" ;;
  failover) test=FailoverIT results=ops/proof/RESULTS-failover.md title="Proof over failovers" ;;
  soak) test=SoakIT results=ops/proof/RESULTS-soak.md title="Soak" ;;
  overload) test=OverloadIT results=ops/proof/RESULTS-overload.md title="Overload" ;;
  *) echo "usage: ops/proof/run.sh [faults|failover|soak|overload]" >&2; exit 2 ;;
esac
figures=target/proof-$proof/figures.txt

command -v java >/dev/null || { echo "ops/proof/run.sh needs java (see ops/proof/README.md)" >&2; exit 1; }

# Packages the service (before the tests) and runs only the proof.
mkdir -p target
status=0
./mvnw -B test -Dproof.mode=long -Dtest="$test" -Dexcluded.failover.group=none -Dexcluded.soak.group=none -Dexcluded.overload.group=none \
  -Dproof.results="$PWD/$figures" | tee "target/proof-$proof-run.log" || status=$?

{
  echo "# $title: results of the long run"
  echo
  echo "Written by \`ops/proof/run.sh $proof\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)."
  echo "Machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB memory, $(uname -sr);" \
    "$(java -version 2>&1 | head -n 1); PostgreSQL $(/usr/lib/postgresql/15/bin/postgres --version 2>/dev/null | awk '{ print $3 }' || echo '17 (embedded)');" \
    "Redis $(redis-server --version 2>/dev/null | sed -E 's/.* v=([^ ]+).*/\1/' || echo '6.2 (embedded)')."
  echo
  if [ "$proof" = soak ]; then
    echo "One instance of the packaged service as deployed (ops/jvm.options), on a private PostgreSQL and Redis. Its capacity"
    echo "is measured first (16 shoppers, each starting its next journey when the last ends); then journeys start at half"
    echo "that rate, whatever the answers' pace. Every 10 s the run samples the instance's RSS, heap after GC, threads and"
    echo "open files, PostgreSQL's connections and each table's size, Redis's memory and keys, and each kind of request's"
    echo "p99. A level fails when the least-squares slope of its peaks (the highest value of the 10 minutes before each"
    echo "sample) over the last 40 minutes would double it within a day; a p99 fails when the median of its last 10 minutes"
    echo "is more than 50 % above that of the 10 minutes after the warm-up."
    echo "Purged rows and expiring keys are kept for 10 minutes (a sixth of the run) so that they level off within it, and"
    echo "unpaid orders expire after 30 seconds, so that their expiries are part of the workload from the first minute."
    echo "The tables holding the orders' own record grow with the orders by design and are judged per order; a table's"
    echo "rise of four pages (32 kB) or less over the window is the grain of its size, not growth, as a rise of four"
    echo "connections is the pool's (it follows the load's busiest moments, up to 32)."
    echo
    echo '```'
    if [ -s "$figures" ]; then cat "$figures"; else echo "(no figures: the run failed before it sampled)"; fi
    echo '```'
    echo
    echo "![each series of the soak](soak.png)"
  elif [ "$proof" = overload ]; then
    echo "One instance of the packaged service as deployed (ops/jvm.options), on a private PostgreSQL and Redis, the sandbox"
    echo "provider answering at once. After a warm-up (40 s of orders, then pays, then 3 s of each at three times their rate),"
    echo "for POST /orders over 100 products and for pay in turn: capacity is what 16 connections get, each sending its next"
    echo "request when its last is answered (20 s); then three times that rate is offered at a fixed pace whatever the answers"
    echo "(30 s), then half of it (15 s). Times count from when a request was due, not from when it went out. Targets: goodput"
    echo "(answers 201/200 a second) at least 0.8x capacity, the p99 of accepted requests at most 3x the p99 at capacity,"
    echo "refusals 503 with Retry-After and a problem detail at a p99 under 50 ms, and from 5 s after the overload every"
    echo "answer a success with a p99 no worse than at capacity. Then the audit: every accepted order and payment is in the"
    echo "database once, no refused request left an order, a payment or a charge, and 200 refused orders sent again (same"
    echo "token, same Idempotency-Key) are each taken once."
    echo
    echo '```'
    if [ -s "$figures" ]; then cat "$figures"; else echo "(no figures: the run failed before its first phase ended)"; fi
    echo '```'
  else
  echo "Three instances of the packaged service (demo profile, one schema, one key prefix); instance 0 alone runs"
  echo "the outbox relay. Each fault scenario injects its fault 3 times under steady load; each line counts the"
  echo "requests clients sent (retries included), the errors they saw from each fault until every instance was"
  echo "ready again, and what the audit found: duplicates, lost and unconverged must all be 0."
  if [ "$proof" = failover ]; then
    echo "The lines after each scenario's say how long each failover took, from the kill (or the command) until"
    echo "the new master or primary took writes."
  fi
  echo
  echo '```'
  if [ -s "$figures" ]; then cat "$figures"; else echo "(no figures: the run failed before the first scenario)"; fi
  echo '```'
  fi
  echo
  if [ "$status" -eq 0 ]; then
    echo "Every assertion held."
  else
    echo "The run FAILED (exit $status); the failing assertions, from the build's output:"
    echo
    echo '```'
    grep -E "^\[ERROR\] +($test|Tests run)|Expecting|duplicates|lost|unconverged|never consumed" "target/proof-$proof-run.log" |
      grep -v '^\[proof\]' | head -n 40 || true
    echo '```'
  fi
} >"$results"
echo "Wrote $results"
samples=$(dirname "$figures")/samples.tsv
if [ "$proof" = soak ] && [ -s "$samples" ]; then
  gnuplot -e "data='$samples'; out='ops/proof/soak.png'; columns=$(($(head -n 1 "$samples" | awk -F '\t' '{ print NF }') - 1))" ops/proof/soak.gp
  echo "Wrote ops/proof/soak.png"
fi
exit "$status"
