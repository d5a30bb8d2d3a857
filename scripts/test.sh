#!/usr/bin/env bash
# Set-up, build, and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cd build && ctest --output-on-failure --timeout 300
