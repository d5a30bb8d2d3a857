#!/usr/bin/env bash
# Set-up, build, and every test, side by side. Arguments go to ctest: `-L unit` runs one
# tier (unit, console, integration, drill), `-R Name` the tests whose names match.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# What the tests start for real: the stores Prometheus (and its promtool) and
# VictoriaMetrics, Alertmanager, the alerts' receiver, and HAProxy, the load balancer in
# front of the replicas. Their Debian packages would start a service of their own where
# systemd runs; the tests start their own copies on free ports instead. dbus-daemon gives the desktop-notification test a session bus;
# systemd, a user manager of the replica tests' own. mmdebstrap makes the package tier's
# clean Debian root; curl asks the agent installed there for its gRPC health, sqlite3 fills
# its ledger.
missing=()
for p in prometheus victoria-metrics prometheus-alertmanager haproxy dbus-daemon systemd \
    mmdebstrap curl sqlite3 python3; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Most tests wait on real processes, sockets and the rules' real durations rather than
# compute: five at a time per core keeps both cores busy (on 2 cores the suite takes
# ~60-65 s this way, ~70 s at three per core; docs/PERFORMANCE.md). Tests that load the
# machine on purpose say so to ctest (PROCESSORS) and take turns, as do those that share
# the machine's systemd (RESOURCE_LOCK).
cd build && ctest --output-on-failure --timeout 300 -j "$(( $(nproc) * 5 ))" "$@"
