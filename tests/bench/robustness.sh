#!/usr/bin/env bash
# The scaling policy on load shapes it has never seen (docs/PERFORMANCE.md, "On shapes
# the traces never had"): steps, ramps, bursts, double bursts, flash crowds and quiet
# hours drawn from SEEDS seeds each, laid over the real Azure traces (conv and code in
# turn), each replayed by Meridian at its defaults and with surge covers ×3 to ×6, static
# peak, HPA-style, Knative-style and the oracle. Writes the report and every case's rows
# under OUT (default /tmp/robustness). About four minutes on two cores at 20 seeds.
#   tests/bench/robustness.sh [OUT] [SEEDS] [FIRST_SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
sim=${SIM:-build/app/sim/meridian-sim}
out=${1:-/tmp/robustness}
seeds=${2:-20}
first=${3:-1}
traces=tests/data/real/traces
mkdir -p "$out"
variants=()
for cover in 3 4 5 6; do
    echo "surge_cover: $cover" >"$out/cover$cover.yaml"
    variants+=(--variant "$out/cover$cover.yaml")
done
/usr/bin/time -f "%e s, %M KB" -o "$out/family.time" \
    "$sim" robustness --trace $traces/azure_llm_2023_conv.csv.gz \
    --trace $traces/azure_llm_2023_code.csv.gz --seeds "$seeds" --seed "$first" \
    --jobs "$(nproc)" "${variants[@]}" --csv "$out/family.csv" >"$out/family.txt"
cat "$out/family.txt"
echo "($(cat "$out/family.time"); every case: $out/family.csv)"
