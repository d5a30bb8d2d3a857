#!/usr/bin/env bash
# Set-up, build, and start the console on its embedded simulated fleet (pass
# --inventory FILE for a real one).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec ./build/app/console/meridian "$@"
