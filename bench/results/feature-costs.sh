#!/usr/bin/env bash
# What each of the project's own steps costs a request against the floor: the measurement behind
# bench/results/feature-costs.md. It runs the built server of CHECKOUT (this repository with
# feature-costs.patch applied and `node scripts/build-server.mjs` run) once per VARIANT, with the
# steps that variant names left out (the patch's KO variable: log, rid, sec, wind, target, life,
# public, dep, sunset, body, strict, reqbody; '' leaves out none), beside bench/floor-server.mjs,
# every server pinned to core 0 on its own copy of one seeded store, and wrk -t1 -c50 on core 1
# for 5 s per server in turn, ROUNDS times. One line of req/s per round.
#
#   bench/results/feature-costs.sh ../patched 5 /v1/pets/5 '' log rid,sec,wind,target
set -euo pipefail
checkout=$(cd "$1" && pwd); rounds=$2; target=$3; shift 3
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
export DATABASE_URL="file:$work/seeded.db"
node "$checkout/dist/cli/migrate.js" > /dev/null
node -e "import('$here/bench/seed.mjs').then((m) => m.seedSqlite('$work/seeded.db', Number(process.env.BENCH_PETS ?? 10000)))"
key=$(node "$checkout/dist/cli/keys.js" create --account feature-costs | tail -1)
pids=(); ports=(); names=()
port=${FEATURE_COSTS_PORT:-7100}
for variant in "$@" floor; do
  cp "$work/seeded.db" "$work/$port.db"
  if [ "$variant" = floor ]; then
    (cd "$here" && BASELINE_DB="$work/$port.db" PORT=$port exec taskset -c 0 node --import tsx bench/floor-server.mjs > "$work/$port.log" 2>&1) &
  else
    (cd "$checkout" && KO=$variant DATABASE_URL="file:$work/$port.db" PORT=$port HOST=127.0.0.1 RATE_LIMIT_PER_MINUTE=0 METRICS_PORT=0 \
      exec taskset -c 0 node dist/main.js > "$work/$port.log" 2>&1) &
  fi
  pids+=($!); ports+=($port); names+=("${variant:-all steps}")
  until grep -q listening "$work/$port.log" 2> /dev/null; do sleep 0.1; done
  port=$((port + 1))
done
trap 'kill "${pids[@]}" 2> /dev/null; rm -rf "$work"' EXIT
load() { taskset -c 1 wrk -t1 -c50 -d"$1" -H "Authorization: Bearer $key" "http://127.0.0.1:$2$target"; }
for p in "${ports[@]}"; do load 3s "$p" > /dev/null; done
for _ in $(seq "$rounds"); do
  line=""
  for i in "${!ports[@]}"; do line+="${names[$i]}=$(load 5s "${ports[$i]}" | awk '/Requests\/sec/ { print $2 }') "; done
  echo "$line"
done
