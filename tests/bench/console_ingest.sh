#!/usr/bin/env bash
# The console at 6,000 cards / 750 agents at 1 Hz: ingest CPU, UI event-loop lag, RSS.
# meridian-sim runs on core 1, the console (offscreen) on core 0, for SECONDS.
#   tests/bench/console_ingest.sh [SECONDS] [NODES]
set -euo pipefail
seconds=${1:-60}
nodes=${2:-750}
build=$(cd "$(dirname "$0")/../../build" && pwd)
work=$(mktemp -d)
trap 'kill $sim 2>/dev/null; rm -rf "$work"' EXIT
taskset -c 1 "$build/app/sim/meridian-sim" --nodes "$nodes" --inventory-out "$work/inventory.yaml" \
    --quit-after $((seconds + 30)) > "$work/sim.log" &
sim=$!
for _ in $(seq 100); do [ -f "$work/inventory.yaml" ] && break; sleep 0.1; done
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$work" taskset -c 0 \
    "$build/app/console/meridian" --inventory "$work/inventory.yaml" \
    --quit-after "$seconds" --diagnostics-json "$work/diagnostics.json" 2>/dev/null
cat "$work/diagnostics.json"
