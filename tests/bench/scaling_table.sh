#!/usr/bin/env bash
# The table of docs/PERFORMANCE.md "Elastic scale-up, judged on real traffic": every
# shared trace evaluated, the median of three seeds. Writes each trace's table, JSON and
# time taken under OUT (default /tmp/scaling-table). Takes about an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
sim=${SIM:-build/app/sim/meridian-sim}
out=${1:-/tmp/scaling-table}
traces=tests/data/real/traces
mkdir -p "$out"
run() {
    local name=$1
    shift
    /usr/bin/time -f "%e s, %M KB" -o "$out/$name.time" \
        "$sim" evaluate --seeds 3 --json "$out/$name.json" "$@" >"$out/$name.txt"
}
run conv --trace $traces/azure_llm_2023_conv.csv.gz --hours 1 &
run code --trace $traces/azure_llm_2023_code.csv.gz --hours 1
run mooncake --trace $traces/mooncake_conversation_trace.jsonl.gz --hours 1
wait
run deepseek-r1 --trace $traces/servegen_deepseek-r1_agg_rate_10min.csv &
run mm-image --trace $traces/servegen_mm-image_agg_rate_10min.csv
wait
run m-mid --trace $traces/servegen_m-mid_agg_rate_10min.csv --hours 72 &
run m-small --trace $traces/servegen_m-small_agg_rate_10min.csv --hours 72
wait
run m-large --trace $traces/servegen_m-large_agg_rate_10min.csv
