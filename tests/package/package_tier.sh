#!/usr/bin/env bash
# The package tier: the .deb files as a fleet rollout meets them, in a clean Debian 12 root
# made with mmdebstrap, on a machine that never built the project. For every server
# package: an older version installed, its unit enabled by the maintainer scripts,
# upgraded to this build, purged, and nothing of it left. For the agent besides: started
# as its unit starts it on the packaged configuration (an operator's edit of that conffile
# kept across the upgrade), answering gRPC health soon after its install (the time said),
# and a ledger of 1,440 minutes that the upgrade keeps to the minute. The pool's lease book
# (4 leases) and the controller's journal are kept across the upgrade and read back by the
# new build, the watcher's history file kept byte for byte,
# and a downgrade over state a newer build wrote is refused by name, the file untouched.
# Then the Ansible role
# for owned nodes (packaging/ansible), run twice on the clean root: the agent it configures
# answers over TLS with a token, and the second run changes nothing. Needs root (chroot)
# and the Debian mirror; says so and fails without them, never skips.
#   tests/package/package_tier.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?the build directory}" && pwd)
source=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "FAIL: the package tier needs root (mmdebstrap, chroot)"; exit 1; }
command -v mmdebstrap >/dev/null || { echo "FAIL: mmdebstrap is not installed"; exit 1; }
work=$(mktemp -d /tmp/meridian-package-tier.XXXXXX)
root=$work/root
agent_pid=""
cleanup() {
    [ -n "$agent_pid" ] && kill "$agent_pid" 2>/dev/null || true
    umount "$root/proc" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
step() { echo "== $*"; }
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
# apt-get in the root, its chatter kept for when it fails.
apt_root() {
    in_root apt-get -y -qq "$@" >> "$work/apt.log" 2>&1 || { tail -40 "$work/apt.log"; fail "apt-get $*"; }
}

step "packages: this build, and the same at 0.0.9 to upgrade from"
(cd "$build" && cpack -G DEB -B "$work/new" >/dev/null &&
    cpack -G DEB -B "$work/old" -D CPACK_PACKAGE_VERSION=0.0.9 >/dev/null)
step "a clean Debian 12 root"
mmdebstrap --quiet --mode=root --variant=apt bookworm "$root" >/dev/null
mkdir -p "$root/debs" && cp "$work"/new/*.deb "$work"/old/*.deb "$root/debs/"
mount -t proc proc "$root/proc"
apt_root update

# A free port for the agent, so the tier runs beside the other tests.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
healthy() {  # gRPC health over h2c: SERVING is field 1 = 1, "08 01"
    curl -s --max-time 2 --http2-prior-knowledge -H "content-type: application/grpc" \
        -H "te: trailers" --data-binary @<(printf '\0\0\0\0\0') \
        "http://127.0.0.1:$port/grpc.health.v1.Health/Check" | od -An -tx1 | grep -q "08 01"
}
# As its unit starts it: as its own user, its state directory made and made that user's
# (systemd's StateDirectory= does both at every start).
start_agent() {
    mkdir -p "$root/var/lib/meridian-agent"
    chroot "$root" chown -R meridian-agent:meridian-agent /var/lib/meridian-agent
    chroot --userspec="$(chroot "$root" id -u meridian-agent):$(chroot "$root" id -g meridian-agent)" \
        "$root" /usr/bin/meridian-agent --config /etc/meridian/agent.yaml > "$work/agent.log" 2>&1 &
    agent_pid=$!
}
stop_agent() { kill "$agent_pid"; wait "$agent_pid" 2>/dev/null || true; agent_pid=""; }

step "meridian-agent 0.0.9: installed, enabled, answering health"
started=$(date +%s.%N)
apt_root install "/debs/meridian-agent_0.0.9_amd64.deb"
[ -L "$root/etc/systemd/system/multi-user.target.wants/meridian-agent.service" ] ||
    fail "the agent's unit is not enabled"
# Its own user, in the device group the root has (video; render and HwHiAiUser where a
# node has them), and the unit runs it so.
in_root id -nG meridian-agent | grep -qw video || fail "no meridian-agent user in group video"
grep -q "^User=meridian-agent" "$root/lib/systemd/system/meridian-agent.service" ||
    fail "the agent's unit does not run it as its own user"
# An operator's edits to the conffile: a node without accelerators simulates its cards;
# the port is the tier's own.
sed -i "s/^collector: auto/collector: sim/; s/^listen: .*/listen: 127.0.0.1:$port/" \
    "$root/etc/meridian/agent.yaml"
mkdir -p "$root/var/lib/meridian-agent"  # the unit's StateDirectory=
start_agent
for _ in $(seq 100); do healthy && break; sleep 0.1; done
healthy || { cat "$work/agent.log"; fail "the agent does not answer health"; }
awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "   health %.1f s after apt install began\n", b - a }'
# The budget is 10 s (docs/PERFORMANCE.md); the mirror's speed is in it, so the tier fails
# only on what cannot be the network: a minute.
elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print (b - a > 60) }')
[ "$elapsed" -eq 0 ] || fail "more than a minute from install to health"
stop_agent

step "1,440 minutes in its ledger, then the upgrade to this build"
now=$(date +%s)
{
    echo "BEGIN;"
    for m in $(seq 0 1439); do
        echo "INSERT OR REPLACE INTO usage_minute (minute_start_unix_s, card_uuid, card_index," \
            "observed_seconds, busy_seconds, mean_utilization_percent, energy_joules)" \
            "VALUES ($(( (now / 60 - 1440 + m) * 60 )), 'tier-card', 0, 60, 30, 50, 12000);"
    done
    echo "COMMIT;"
} | sqlite3 -bail "$root/var/lib/meridian-agent/agent.db"
apt_root install "/debs/meridian-agent_0.1.0_amd64.deb"
kept=$(sqlite3 "$root/var/lib/meridian-agent/agent.db" \
    "SELECT count(*) FROM usage_minute WHERE card_uuid = 'tier-card'")
[ "$kept" -eq 1440 ] || fail "the upgrade kept $kept of 1440 ledger minutes"
grep -q "^collector: sim" "$root/etc/meridian/agent.yaml" || fail "the upgrade undid the operator's edit"
start_agent
for _ in $(seq 100); do healthy && break; sleep 0.1; done
healthy || { cat "$work/agent.log"; fail "the upgraded agent does not answer health"; }
stop_agent
kept=$(sqlite3 "$root/var/lib/meridian-agent/agent.db" \
    "SELECT count(*) FROM usage_minute WHERE card_uuid = 'tier-card'")
[ "$kept" -eq 1440 ] || fail "the upgraded agent kept $kept of 1440 ledger minutes"

# A daemon of the root started as its unit starts it, until its log says `$2` (or it
# ends); then stopped. Its log is left in $work/$1.log; false where it never said it.
run_until_says() {
    local name=$1 says=$2
    shift 2
    chroot "$root" "$@" > "$work/$name.log" 2>&1 &
    local pid=$!
    for _ in $(seq 150); do
        grep -q "$says" "$work/$name.log" && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    grep -q "$says" "$work/$name.log"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# A downgrade over state a newer build wrote: the older daemon refuses the file by name and
# leaves it as it is.
refuses_newer_state() {
    local package=$1 file=$2 says=$3
    shift 3
    sqlite3 "$root$file" "PRAGMA user_version = 99"
    apt_root install --allow-downgrades "/debs/${package}_0.0.9_amd64.deb"
    run_until_says "$package-downgraded" "$says" "$@" ||
        { cat "$work/$package-downgraded.log"; fail "$package 0.0.9 did not refuse newer state"; }
    grep -q "$file" "$work/$package-downgraded.log" || fail "$package's refusal does not name $file"
    [ "$(sqlite3 "$root$file" "PRAGMA user_version")" -eq 99 ] || fail "$file was changed"
    apt_root install "/debs/${package}_0.1.0_amd64.deb"
}

step "meridian-pool 0.0.9 with 4 leases in its books; upgraded and read back; a downgrade refused"
apt_root install "/debs/meridian-pool_0.0.9_amd64.deb"
[ -L "$root/etc/systemd/system/multi-user.target.wants/meridian-pool.service" ] ||
    fail "meridian-pool's unit is not enabled"
cat > "$root/usr/local/bin/tier-provider" <<'PROVIDER'
#!/bin/sh
# A provider that holds lease-1 to lease-4 and does nothing else.
case "$1" in
    list) echo '{"leases": [{"lease_id": "lease-1"}, {"lease_id": "lease-2"}, {"lease_id": "lease-3"}, {"lease_id": "lease-4"}]}' ;;
    *) echo '{}' ;;
esac
PROVIDER
chmod +x "$root/usr/local/bin/tier-provider"
cat > "$root/etc/meridian/pool.yaml" <<POOL
listen: 127.0.0.1:$(free_port)
data_dir: /var/lib/meridian-pool
providers:
  - name: tier
    command: [/usr/local/bin/tier-provider]
    timeout_seconds: 10
    offers:
      - {offer_id: tier-a100, region: xiamen, vendor: nvidia, card_model: A100-SXM4-80GB,
         cards_per_node: 8, nodes: 2, price_cny_per_card_hour: 2.6,
         billing_increment_seconds: 3600, provisioning_seconds: 60}
POOL
mkdir -p "$root/var/lib/meridian-pool"
pool_cmd=(/usr/bin/meridian-pool --config /etc/meridian/pool.yaml)
run_until_says pool-old "serving on" "${pool_cmd[@]}" || { cat "$work/pool-old.log"; fail "meridian-pool 0.0.9 did not start"; }
books=/var/lib/meridian-pool/pool.db
for n in 1 2 3 4; do
    record='{"leaseId":"lease-'$n'","idempotencyKey":"tier-key-'$n'","offerId":"tier-a100","region":"xiamen","cardModel":"A100-SXM4-80GB","nodes":1,"cardsPerNode":8,"priceCnyPerCardHour":2.6,"billingIncrementSeconds":3600,"state":"LEASE_STATE_READY","createdUnixMs":"1800000000000","readyUnixMs":"1800000060000","leasedNodes":[{"nodeId":"tier-node-'$n'","agentAddress":"127.0.0.1:1"}],"requestedBy":"scaled@tier"}'
    sqlite3 -bail "$root$books" \
        "INSERT INTO lease VALUES ('lease-$n', 'tier-key-$n', 'scaled@tier', 'tier', 0, '$record')"
done
apt_root install "/debs/meridian-pool_0.1.0_amd64.deb"
grep -q "name: tier" "$root/etc/meridian/pool.yaml" || fail "the upgrade undid the pool's configuration"
run_until_says pool-new "its list checked against the books: 4 held, 0 no longer held" \
    "${pool_cmd[@]}" || { cat "$work/pool-new.log"; fail "the upgraded pool did not read its lease back"; }
[ "$(sqlite3 "$root$books" "SELECT count(*) FROM lease WHERE json_extract(record, '$.state') = 'LEASE_STATE_READY'")" -eq 4 ] ||
    fail "the upgrade lost or changed leases in the books"
refuses_newer_state meridian-pool "$books" "written by a newer Meridian" "${pool_cmd[@]}"

step "meridian-scaled 0.0.9 with a step in its journal; upgraded and read back; a downgrade refused"
apt_root install "/debs/meridian-scaled_0.0.9_amd64.deb"
[ -L "$root/etc/systemd/system/multi-user.target.wants/meridian-scaled.service" ] ||
    fail "meridian-scaled's unit is not enabled"
cat > "$root/etc/meridian/tier-inventory.yaml" <<'INVENTORY'
data_centers:
  - name: xiamen
    agents: [127.0.0.1:1]   # nobody there: the controller starts all the same
capacity_pool: 127.0.0.1:1
INVENTORY
cat > "$root/etc/meridian/tier-services.yaml" <<'SERVICES'
services:
  - name: chat
    model: qwen2-72b-instruct
    cards_per_replica: 4
    runs_on: [{card_model: A100-SXM4-80GB, requests_per_second_per_card: 0.9}]
    slo: {ttft_p95_seconds: 5}
    replicas: {min: 1, max: 16}
SERVICES
cat > "$root/etc/meridian/scaled.yaml" <<SCALED
listen: 127.0.0.1:$(free_port)
metrics_listen: 127.0.0.1:$(free_port)
controller_id: scaled@tier
journal: /var/lib/meridian-scaled/journal.sqlite
inventory: /etc/meridian/tier-inventory.yaml
services: /etc/meridian/tier-services.yaml
mode: manual
SCALED
mkdir -p "$root/var/lib/meridian-scaled"
scaled_cmd=(/usr/bin/meridian-scaled --config /etc/meridian/scaled.yaml)
run_until_says scaled-old "serving on" "${scaled_cmd[@]}" || { cat "$work/scaled-old.log"; fail "meridian-scaled 0.0.9 did not start"; }
journal=/var/lib/meridian-scaled/journal.sqlite
sqlite3 -bail "$root$journal" "INSERT INTO scaling_step (service, idempotency_key, state, offer_id,
    lease_id, node_id, cny_per_hour, requested_by, reason, created_unix_ms, updated_unix_ms)
    VALUES ('chat', 'chat-tier-1', 'serving', 'tier-a100', 'lease-1', 'tier-node-1', 20.8,
    'scaled@tier', 'a tier step', 1800000000000, 1800000060000)"
audited=$(sqlite3 "$root$journal" "SELECT count(*) FROM audit_log")
apt_root install "/debs/meridian-scaled_0.1.0_amd64.deb"
run_until_says scaled-new "serving on" "${scaled_cmd[@]}" || { cat "$work/scaled-new.log"; fail "the upgraded meridian-scaled did not start"; }
[ "$(sqlite3 "$root$journal" "SELECT state || ' ' || lease_id FROM scaling_step WHERE idempotency_key = 'chat-tier-1'")" = "serving lease-1" ] ||
    fail "the upgrade lost or changed the journal's step"
[ "$(sqlite3 "$root$journal" "SELECT count(*) FROM audit_log")" -ge "$audited" ] ||
    fail "the upgrade lost audit rows"
refuses_newer_state meridian-scaled "$journal" "written by a newer Meridian" "${scaled_cmd[@]}"

step "meridian-watch: 0.0.9 installed and enabled, upgraded with its history file in place"
apt_root install "/debs/meridian-watch_0.0.9_amd64.deb"
[ -L "$root/etc/systemd/system/multi-user.target.wants/meridian-watch.service" ] ||
    fail "meridian-watch's unit is not enabled"
# Where DynamicUser= keeps its StateDirectory: what was delivered, kept across restarts.
history=/var/lib/private/meridian-watch/history.db
mkdir -p "$(dirname "$root$history")"
sqlite3 -bail "$root$history" "CREATE TABLE kept (what TEXT); INSERT INTO kept VALUES ('delivered')"
before=$(sha256sum < "$root$history")
apt_root install "/debs/meridian-watch_0.1.0_amd64.deb"
[ "$(in_root dpkg-query -W -f='${Version}' meridian-watch)" = "0.1.0" ] || fail "meridian-watch not upgraded"
[ "$(sha256sum < "$root$history")" = "$before" ] || fail "the upgrade touched the watcher's history file"
# What the server packages never pull in: a GUI library.
for package in meridian-agent meridian-pool meridian-scaled meridian-watch; do
    if in_root dpkg-query -W -f='${Depends}' "$package" | grep -qiE "libqt6(gui|widgets|charts|dbus)"; then
        fail "$package depends on a GUI library"
    fi
done

step "purged: no file, no state, no unit link left"
mkdir -p "$root/var/lib/meridian-pool" "$root/var/lib/meridian-scaled"
touch "$root/var/lib/meridian-pool/leases.db"
ln -sfn private/meridian-watch "$root/var/lib/meridian-watch"  # as systemd links it
apt_root purge meridian-agent meridian-pool meridian-scaled meridian-watch
for left in /var/lib/meridian-agent /var/lib/meridian-pool /var/lib/meridian-scaled \
    /var/lib/meridian-watch /var/lib/private/meridian-watch /etc/meridian/agent.yaml /etc/meridian/pool.yaml /etc/meridian/scaled.yaml \
    /etc/meridian/alert-routes.yaml /usr/bin/meridian-agent /usr/bin/meridian-watch \
    /etc/systemd/system/multi-user.target.wants/meridian-agent.service; do
    [ ! -e "$root$left" ] && [ ! -L "$root$left" ] || fail "$left is left after purge"
done
step "the Ansible role on the clean root, twice: TLS and a token, and no change the second time"
apt_root install --no-install-recommends ansible-core
mkdir -p "$root/srv/rollout"
cp -r "$source/packaging/ansible/roles" "$root/srv/rollout/"
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$root/srv/rollout/agent.key" \
    -out "$root/srv/rollout/agent.crt" 2>/dev/null
cat > "$root/srv/rollout/node.yml" <<PLAY
- hosts: localhost
  connection: local
  gather_facts: true
  vars:
    meridian_agent_deb: /debs/meridian-agent_0.1.0_amd64.deb
    meridian_agent_listen: "127.0.0.1:$port"
    meridian_agent_collector: sim
    meridian_agent_data_center: wuhu
    meridian_agent_tls_cert: /srv/rollout/agent.crt
    meridian_agent_tls_key: /srv/rollout/agent.key
    meridian_agent_tokens: [{name: autoscaler, role: operator, secret: tier-secret-0123456789abcdef}]
  roles: [meridian_agent]
PLAY
ansible_run() {
    in_root sh -c "cd /srv/rollout && LC_ALL=C.UTF-8 ANSIBLE_ROLES_PATH=/srv/rollout/roles \
        ansible-playbook -i localhost, node.yml" > "$work/ansible.log" 2>&1 ||
        { tail -40 "$work/ansible.log"; fail "the Ansible role failed"; }
}
ansible_run
grep -q "changed=[1-9]" "$work/ansible.log" || fail "the first run changed nothing"
ansible_run
grep -q "changed=0" "$work/ansible.log" || { tail -20 "$work/ansible.log"; fail "the second run changed something"; }
# Secrets readable by root and the agent's own user, by nobody else (ids as the root has
# them: the host's names for them may differ).
agent_gid=$(in_root id -g meridian-agent)
for secret in /etc/meridian/tokens/autoscaler /etc/meridian/tls/agent.key; do
    [ "$(stat -c '%a %u %g' "$root$secret")" = "640 0 $agent_gid" ] ||
        fail "$secret is $(stat -c '%a %u %g' "$root$secret"), not 640 root meridian-agent"
done
# The agent as the role configured it: TLS, and health asked with the token.
start_agent
tls_healthy() {
    curl -s --max-time 2 --http2 --cacert "$root/srv/rollout/agent.crt" \
        -H "content-type: application/grpc" -H "te: trailers" \
        -H "authorization: Bearer tier-secret-0123456789abcdef" \
        --data-binary @<(printf '\0\0\0\0\0') \
        "https://127.0.0.1:$port/grpc.health.v1.Health/Check" | od -An -tx1 | grep -q "08 01"
}
for _ in $(seq 100); do tls_healthy && break; sleep 0.1; done
tls_healthy || { cat "$work/agent.log"; fail "the agent the role configured does not answer over TLS"; }
stop_agent

echo "PASS: install, enable, upgrade with state, purge in a clean Debian 12 root; the role twice"
