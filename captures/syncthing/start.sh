#!/usr/bin/env bash
# Start Syncthing 1.19.2 (Debian bookworm's syncthing) FRESH and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port of Syncthing's GUI and REST API (127.0.0.1); refused when something listens
#   HOME_DIR  where its configuration, database and folders go (default: mktemp -d); an old
#             st-home below it is removed
# Env:  SYNCTHING_ROOT  the unpacked package (`dpkg -x syncthing_*.deb DIR`; default the
#       repository's .ci/cache/syncthing, where .ci/live-apps.sh puts it)
# Prints "syncthing READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The device is always the same one: config.xml, cert.pem and key.pem are this folder's (a
# throwaway key made for the recording). The configuration turns off global and local discovery,
# relays, NAT, STUN, usage reports, crash reports and upgrades (STNOUPGRADE too), and the sync
# protocol listens on 127.0.0.1 at a port the system picks: Syncthing reaches no network.
# Folder paths are relative: Syncthing runs inside HOME_DIR/st-home with HOME set to it, so
# every folder and "~" land there. The seed (seed.py) runs directly on the app port.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
ROOT="${SYNCTHING_ROOT:-$HERE/../../.ci/cache/syncthing}"
BINARY="$ROOT/usr/bin/syncthing"
[ -x "$BINARY" ] || { echo "no $BINARY: run bash .ci/live-apps.sh install" >&2; exit 1; }

refuse_taken_port "$PORT"
ST_HOME="$(mkdir -p "$HOME_DIR" && cd "$HOME_DIR" && pwd)/st-home"
rm -rf "$ST_HOME"
mkdir -p "$ST_HOME/config"
sed "s/@PORT@/$PORT/" "$HERE/config.xml" > "$ST_HOME/config/config.xml"
cp "$HERE/cert.pem" "$HERE/key.pem" "$ST_HOME/config/"
chmod 600 "$ST_HOME/config/key.pem"
API_KEY="syncthing-capture-key-not-a-secret-0001"

stop_app_on_signal
cd "$ST_HOME"
HOME=. STNOUPGRADE=1 STNORESTART=1 "$BINARY" serve --home="$ST_HOME/config" --no-browser \
  --no-default-folder --no-restart --no-upgrade --gui-address="127.0.0.1:$PORT" --gui-apikey="$API_KEY" &
APP_PID=$!
wait_until_up 300 0.1 "syncthing did not come up on $PORT" \
  -H "X-API-Key: $API_KEY" "http://127.0.0.1:$PORT/rest/system/ping"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$API_KEY"
echo "syncthing READY on $PORT"
wait "$APP_PID"
