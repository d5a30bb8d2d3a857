#!/usr/bin/env bash
# Set-up, build, and start the simulated fleet the console will connect to.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec ./build/app/sim/meridian-sim --inventory-out build/inventory.yaml "$@"
