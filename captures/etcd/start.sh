#!/usr/bin/env bash
# Start etcd 3.4.23 (Debian bookworm's etcd-server) FRESH with its v2 API on, and seed its v2 keys.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port of etcd's client API (127.0.0.1); refused when something listens
#   HOME_DIR  where its data directory goes (default: mktemp -d); an old one is removed
# Env:  ETCD_ROOT  the unpacked package (`dpkg -x etcd-server_*.deb DIR`; default the repository's
#       .ci/cache/etcd, where .ci/live-apps.sh puts it; ETCD_ROOT=/ runs a system install)
# Prints "etcd READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# One member named "capenv" in a new cluster: the peer listener takes a port the system picks, but
# the member advertises etcd's default URLs (http://127.0.0.1:2379 and :2380, never dialled by a
# cluster of one), so that its member id, cluster id and /v2/members answer are the same on every
# start whatever the ports. etcd reads ETCD_* variables as flags: ETCD_ROOT is not passed on.
# The seed (seed.py) runs directly on the client port.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
ROOT="${ETCD_ROOT:-$HERE/../../.ci/cache/etcd}"
BINARY="$ROOT/usr/bin/etcd"
[ -x "$BINARY" ] || { echo "no $BINARY: run bash .ci/live-apps.sh install" >&2; exit 1; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
DATA="$(cd "$HOME_DIR" && pwd)/etcd-data"
rm -rf "$DATA"
PEER_PORT="$(free_port)"

stop_app_on_signal
env -u ETCD_ROOT "$BINARY" --name capenv --data-dir "$DATA" --enable-v2=true \
  --listen-client-urls "http://127.0.0.1:$PORT" --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls "http://127.0.0.1:$PEER_PORT" --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster capenv=http://127.0.0.1:2380 --initial-cluster-token capenv-capture \
  --initial-cluster-state new --log-level warn &
APP_PID=$!
wait_until_up 300 0.1 "etcd did not come up on $PORT" "http://127.0.0.1:$PORT/health"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "etcd READY on $PORT"
wait "$APP_PID"
