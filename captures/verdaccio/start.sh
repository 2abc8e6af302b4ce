#!/usr/bin/env bash
# Start Verdaccio 6.8.0 (a private npm registry: Express on its local file storage) FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port it listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where its configuration, htpasswd file and storage are made (default: mktemp -d); an old
#             storage there is removed first
# Env:  VERDACCIO_DIR  the npm prefix with verdaccio 6.8.0 installed (.ci/live-apps.sh; required)
# Prints "verdaccio READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The configuration (config.yaml.in) has no uplinks: nothing reaches npmjs. seed.py adds the users and
# publishes the seed packages through the registry's own API once it answers.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VERDACCIO_DIR="${VERDACCIO_DIR:?set VERDACCIO_DIR to the npm prefix with verdaccio 6.8.0 installed}"
BIN="$VERDACCIO_DIR/node_modules/verdaccio/bin/verdaccio"
[ -f "$BIN" ] || { echo "no verdaccio in $VERDACCIO_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/storage" "$HOME_DIR/htpasswd"
sed -e "s|@HOME_DIR@|$HOME_DIR|g" -e "s|@PORT@|$PORT|g" "$HERE/config.yaml.in" >"$HOME_DIR/config.yaml"

stop_app_on_signal
HOME="$HOME_DIR" node "$BIN" --config "$HOME_DIR/config.yaml" >"$HOME_DIR/verdaccio.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "verdaccio did not come up on $PORT" "http://127.0.0.1:$PORT/-/ping"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "verdaccio READY on $PORT"
wait "$APP_PID"
