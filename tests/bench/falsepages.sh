#!/usr/bin/env bash
# Never cry wolf (docs/PERFORMANCE.md, "False pages on a busy machine"): STARTS starts of
# meridian-watch and of a console, side by side, on a healthy simulated fleet of NODES
# nodes in its own process, while two busy loops keep both cores saturated. Every start
# runs SECONDS (past every pending duration) with a webhook route that counts what it is
# sent; a healthy fleet must page nobody. Prints each start's posts and the watcher's
# own-lag figures, and the total.
#   tests/bench/falsepages.sh [STARTS] [NODES] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
meridian=${MERIDIAN:-$PWD/build/app/console/meridian}
watch=${MERIDIAN_WATCH:-$PWD/build/app/watch/meridian-watch}
sim=${SIM:-$PWD/build/app/sim/meridian-sim}
starts=${1:-20}
nodes=${2:-750}
seconds=${3:-60}
work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The receiver: counts POSTs and keeps their bodies.
port=$((20000 + RANDOM % 20000))
python3 - "$port" "$work/posts" <<'PY' &
import http.server, sys
port, out = int(sys.argv[1]), sys.argv[2]
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        with open(out, 'ab') as f:
            f.write(body + b'\n')
        self.send_response(200); self.end_headers(); self.wfile.write(b'{}')
    def log_message(self, *args): pass
http.server.HTTPServer(('127.0.0.1', port), Hook).serve_forever()
PY
pids+=($!)
touch "$work/posts"
printf 'routes:\n  - {name: hook, kind: json, url: "http://127.0.0.1:%s/hook"}\n' "$port" >"$work/routes.yaml"

"$sim" --nodes "$nodes" --inventory-out "$work/sim-inventory.yaml" >"$work/sim.log" 2>&1 &
pids+=($!)
until grep -q capacity_pool "$work/sim-inventory.yaml" 2>/dev/null; do sleep 1; done
# The fleet without its capacity pool: no autoscaler in the console, whose plans waiting
# for approval are requests, not faults.
grep -v capacity_pool "$work/sim-inventory.yaml" >"$work/inventory.yaml"
sleep 5
# Both cores busy with someone else's work.
for _ in 1 2; do (while :; do :; done) & pids+=($!); done

total=0
for i in $(seq 1 "$starts"); do
    before=$(wc -l <"$work/posts")
    metrics=$((40000 + RANDOM % 20000))
    "$watch" --inventory "$work/inventory.yaml" --alert-routes "$work/routes.yaml" \
        --db "$work/watch$i.db" --listen "127.0.0.1:$metrics" --quit-after "$seconds" \
        >"$work/watch$i.log" 2>&1 &
    watcher=$!
    QT_QPA_PLATFORM=offscreen "$meridian" --inventory "$work/inventory.yaml" \
        --alert-routes "$work/routes.yaml" --db "$work/console$i.db" \
        --quit-after "$seconds" >"$work/console$i.log" 2>&1 &
    console=$!
    sleep $((seconds - 3))
    lag=$( (curl -s "127.0.0.1:$metrics/metrics" || true) |
        awk '/^meridian_watch_behind_total /{b=$2} /^meridian_watch_agents\{state="connected"\}/{c=$2}
             END{printf "connected %s, fell behind %s time(s)", c, b}')
    wait "$watcher" "$console" || true
    posts=$(($(wc -l <"$work/posts") - before))
    total=$((total + posts))
    echo "start $i: $posts notification(s); watcher $lag"
    if [ "$posts" -gt 0 ]; then tail -n "$posts" "$work/posts" | cut -c1-300; fi
done
echo "total: $total false notification(s) in $starts starts of a watcher and a console" \
    "($nodes nodes, both cores saturated, ${seconds} s each)"
