#!/usr/bin/env bash
# What knowing the load ahead is worth (docs/PERFORMANCE.md, "What each minute of
# foresight is worth"): Meridian's policy told each trace's own load HORIZON seconds
# ahead (`evaluate --told-ahead`), from 0 (each minute's load as it begins, which no
# reaction beats) to the policy's 330 s lead. At each horizon the policy runs at the
# highest target occupancy, of 1.0, 0.9, 0.8 and 0.7, that keeps 99% of requests inside
# the objective (the median of three seeds); the table gives its rented card-hours.
# Usage: foresight_worth.sh [OUT] (default /tmp/foresight-worth); TRACES and HORIZONS
# override what is run. deepseek-r1 and mm-image take about an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
sim=${SIM:-build/app/sim/meridian-sim}
out=${1:-/tmp/foresight-worth}
traces=${TRACES:-"deepseek-r1 mm-image"}
horizons=${HORIZONS:-"0 60 120 180 240 330"}
mkdir -p "$out"

# The share of requests inside the objective in the told row of a run's JSON.
told_share() {
    python3 -c 'import json,sys
run = json.load(open(sys.argv[1]))
print(next(r["within_slo_share"] for r in run["results"] if r["autoscaler"] == "meridian told"))' "$1"
}

study() {
    local trace=$1 file=tests/data/real/traces/servegen_$1_agg_rate_10min.csv
    for horizon in $horizons; do
        for occupancy in 1.0 0.9 0.8 0.7; do
            local name=$trace-$horizon-$occupancy
            echo "target_occupancy_with_forecast: $occupancy" >"$out/$name.yaml"
            "$sim" evaluate --seeds 3 --trace "$file" --told-ahead "$horizon" \
                --policy "$out/$name.yaml" --json "$out/$name.json" >"$out/$name.txt"
            if python3 -c 'import sys; sys.exit(float(sys.argv[1]) < 0.99)' \
                "$(told_share "$out/$name.json")"; then
                break
            fi
        done
    done
}

for trace in $traces; do
    study "$trace" &
done
wait

# One line per trace and horizon: the highest occupancy that kept 99%, what it rents.
python3 - "$out" $traces <<'EOF'
import glob, json, os, sys
out, traces = sys.argv[1], sys.argv[2:]
print("| trace | told ahead | occupancy | in SLO | rented card-h | actions |")
print("|---|---|---|---|---|---|")
for trace in traces:
    runs = {}
    for path in glob.glob(os.path.join(out, trace + "-*.json")):
        horizon, occupancy = os.path.basename(path)[len(trace) + 1:-5].split("-")
        told = next(r for r in json.load(open(path))["results"]
                    if r["autoscaler"] == "meridian told")
        runs.setdefault(int(horizon), []).append((float(occupancy), told))
    for horizon in sorted(runs):
        kept = [(o, t) for o, t in runs[horizon] if t["within_slo_share"] >= 0.99]
        occupancy, told = max(kept, key=lambda x: x[0]) if kept else min(runs[horizon])
        print(f"| {trace} | {horizon} s | {occupancy:.1f} | {100 * told['within_slo_share']:.2f}% "
              f"| {told['rented_card_hours']:,.0f} | {told['scale_actions']} |")
EOF
