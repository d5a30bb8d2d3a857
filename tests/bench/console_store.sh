#!/usr/bin/env bash
# A 100,000-card fleet (12,500 nodes) through a Prometheus-compatible store: the store
# scrapes fleet_exporter every SCRAPE seconds; the console (offscreen, core 0) reads the
# store for SECONDS and writes its diagnostics; then, over the same store for the same
# time, a Grafana-style client asks every second for the raw series and parses them.
#   tests/bench/console_store.sh [SECONDS] [NODES] [vm|prometheus] [SCRAPE]
set -euo pipefail
seconds=${1:-120}
nodes=${2:-12500}
store=${3:-vm}
scrape=${4:-15}
build=$(cd "$(dirname "$0")/../../build" && pwd)
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

taskset -c 1 "$build/tests/bench/fleet_exporter" "$nodes" "$work/targets.json" > "$work/exporter.port" &
pids+=($!)
for _ in $(seq 600); do [ -s "$work/exporter.port" ] && break; sleep 0.1; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/scrape.yml" <<YAML
global: {scrape_interval: ${scrape}s, scrape_timeout: 10s}
scrape_configs:
  - job_name: meridian
    file_sd_configs: [{files: ['$work/targets.json']}]
YAML
if [ "$store" = vm ]; then
    taskset -c 1 victoria-metrics -httpListenAddr=127.0.0.1:$port -storageDataPath="$work/vm" \
        -promscrape.config="$work/scrape.yml" -search.latencyOffset=1s \
        -loggerLevel=ERROR > "$work/store.log" 2>&1 &
else
    taskset -c 1 prometheus --config.file="$work/scrape.yml" --storage.tsdb.path="$work/tsdb" \
        --web.listen-address=127.0.0.1:$port --log.level=error > "$work/store.log" 2>&1 &
fi
store_pid=$!
pids+=($store_pid)
url=http://127.0.0.1:$port
cards=$((nodes * 8))
echo "waiting for $cards cards in $store ..." >&2
for _ in $(seq 1200); do
    n=$(curl -s "$url/api/v1/query" --data-urlencode 'query=count(DCGM_FI_DEV_GPU_UTIL)' |
        python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' 2>/dev/null || echo 0)
    # A few scrapes of 12,500 may miss their timeout on a loaded machine: 99% will do.
    [ "${n%.*}" -ge $((cards * 99 / 100)) ] && break
    sleep 1
done
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
tick=$(getconf CLK_TCK)

store_before=$(cpu $store_pid)
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$work" XDG_DATA_HOME="$work" taskset -c 0 \
    "$build/app/console/meridian" --prometheus "$url" --scrape-interval "$scrape" \
    --quit-after "$seconds" --diagnostics-json "$work/console.json" 2>/dev/null
store_console=$(( $(cpu $store_pid) - store_before ))

store_before=$(cpu $store_pid)
taskset -c 0 python3 - "$url" "$seconds" > "$work/grafana.json" <<'PY'
import json, os, sys, time, urllib.parse, urllib.request
url, seconds = sys.argv[1], float(sys.argv[2])
received, answers, lag = 0, 0, []
start = time.time(); cpu0 = os.times()
while time.time() - start < seconds:
    t = time.time()
    body = urllib.request.urlopen(url + "/api/v1/query?" + urllib.parse.urlencode(
        {"query": "DCGM_FI_DEV_GPU_UTIL"})).read()
    received += len(body); answers += 1
    json.loads(body)
    lag.append(time.time() - t)
    time.sleep(max(0.0, 1.0 - (time.time() - t)))
cpu1 = os.times(); wall = time.time() - start
lag.sort()
print(json.dumps({"queries": answers, "bytes_per_second": received / wall,
                  "client_cpu_percent": 100 * ((cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)) / wall,
                  "query_seconds_p50": lag[len(lag) // 2], "query_seconds_max": lag[-1]}))
PY
store_grafana=$(( $(cpu $store_pid) - store_before ))

python3 - "$work/console.json" "$work/grafana.json" "$store_console" "$store_grafana" "$tick" "$seconds" "$store" <<'PY'
import json, sys
console, grafana = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
store_console, store_grafana, tick, seconds, store = map(str, sys.argv[3:8])
pct = lambda jiffies: round(100 * int(jiffies) / int(tick) / float(seconds), 1)
print(json.dumps({"store": store, "console": console,
                  "store_cpu_percent_while_console_reads": pct(store_console),
                  "grafana_style_per_second_raw_queries": grafana,
                  "store_cpu_percent_while_grafana_style_reads": pct(store_grafana)}, indent=1))
PY
