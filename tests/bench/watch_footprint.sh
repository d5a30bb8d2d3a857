#!/usr/bin/env bash
# meridian-watch over 6,000 cards / 750 agents at 1 Hz: its CPU (share of one core) and RSS
# once settled. meridian-sim runs on core 1, the watcher on core 0; the watcher is given
# WARMUP seconds to connect every agent, then measured for SECONDS; any further arguments
# go to the watcher (e.g. --telemetry-every 1).
#   tests/bench/watch_footprint.sh [SECONDS] [NODES] [WARMUP] [WATCHER FLAGS...]
set -euo pipefail
seconds=${1:-60}
nodes=${2:-750}
warmup=${3:-30}
shift $(( $# < 3 ? $# : 3 ))
build=$(cd "$(dirname "$0")/../../build" && pwd)
work=$(mktemp -d)
trap 'kill $watch $sim 2>/dev/null; rm -rf "$work"' EXIT
taskset -c 1 "$build/app/sim/meridian-sim" --nodes "$nodes" --inventory-out "$work/inventory.yaml" \
    --quit-after $((seconds + warmup + 30)) > "$work/sim.log" &
sim=$!
for _ in $(seq 300); do [ -s "$work/inventory.yaml" ] && break; sleep 0.1; done
# A route nobody listens on: a healthy fleet pages nobody, and nothing is sent.
printf "routes:\n  - {name: hook, kind: json, url: 'http://127.0.0.1:9/hook'}\n" > "$work/routes.yaml"
taskset -c 0 "$build/app/watch/meridian-watch" --inventory "$work/inventory.yaml" \
    --alert-routes "$work/routes.yaml" --db "$work/watch.db" --listen 127.0.0.1:0 "$@" \
    > "$work/watch.log" 2>&1 &
watch=$!
sleep "$warmup"
ticks() { awk '{print $14 + $15}' "/proc/$watch/stat"; }
before=$(ticks)
sleep "$seconds"
after=$(ticks)
hz=$(getconf CLK_TCK)
awk -v a="$after" -v b="$before" -v s="$seconds" -v hz="$hz" \
    'BEGIN { printf "cpu_percent_of_one_core %.2f\n", 100 * (a - b) / hz / s }'
grep -E 'VmRSS|VmHWM|Threads' "/proc/$watch/status"
