#!/usr/bin/env bash
# Start Prometheus Alertmanager 0.25.0 (Debian bookworm's prometheus-alertmanager) FRESH and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Alertmanager's HTTP API listens on (127.0.0.1); refused when something listens
#   HOME_DIR  where its configuration and a new storage directory go (default: mktemp -d); an old
#             storage directory is removed
# Env:  ALERTMANAGER_ROOT  the unpacked package (`dpkg -x prometheus-alertmanager_*.deb DIR`; default
#       the repository's .ci/cache/alertmanager, where .ci/live-apps.sh puts it)
# Prints "alertmanager READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# No clustering (--cluster.listen-address= empty), so nothing else listens. The seed (seed.py) runs
# directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
ROOT="${ALERTMANAGER_ROOT:-$HERE/../../.ci/cache/alertmanager}"
BINARY="$ROOT/usr/bin/prometheus-alertmanager"
[ -x "$BINARY" ] || { echo "no $BINARY: run bash .ci/live-apps.sh install" >&2; exit 1; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/data"
mkdir -p "$HOME_DIR/data"
cp "$HERE/alertmanager.yml" "$HOME_DIR/alertmanager.yml"
ARGS=(--config.file="$HOME_DIR/alertmanager.yml" --storage.path="$HOME_DIR/data"
      --web.listen-address="127.0.0.1:$PORT" --cluster.listen-address=)

# Debian's build reads its default notification templates from the fixed path
# /usr/share/prometheus/alertmanager/default.tmpl and exits without them. When the package is not
# installed system-wide, the binary runs in a private mount namespace where the unpacked
# usr/share is laid over /usr/share (a read-only overlay): nothing outside the process changes.
stop_app_on_signal
if [ -f /usr/share/prometheus/alertmanager/default.tmpl ]; then
  "$BINARY" "${ARGS[@]}" &
else
  NS=(--mount)
  [ "$(id -u)" = 0 ] || NS+=(--map-root-user)
  unshare "${NS[@]}" sh -c 'mount -t overlay overlay -o "lowerdir=$1:/usr/share" /usr/share && shift && exec "$@"' \
    sh "$(cd "$ROOT/usr/share" && pwd)" "$BINARY" "${ARGS[@]}" &
fi
APP_PID=$!
wait_until_up 300 0.1 "alertmanager did not come up on $PORT" "http://127.0.0.1:$PORT/-/ready"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "alertmanager READY on $PORT"
wait "$APP_PID"
