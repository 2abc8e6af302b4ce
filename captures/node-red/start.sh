#!/usr/bin/env bash
# Start Node-RED 4.1.15 FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the server listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where its user directory is made (default: mktemp -d): HOME_DIR/userdir, removed first
# Env:  NODE_RED_DIR  the npm prefix with node-red 4.1.15 installed (.ci/live-apps.sh; required)
# Prints "node-red READY on <port>" once the admin API answers; stops on SIGINT/SIGTERM.
# The user directory holds ./seed/settings.js (no adminAuth, a fixed credentialSecret, no telemetry,
# update checks, tours or palette installs) and ./seed/flows.json (three tabs, a global-config node and
# eight nodes with fixed ids), copied before the server starts, so the seed is never recorded and any
# day's start answers the same.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
NODE_RED_DIR="${NODE_RED_DIR:?set NODE_RED_DIR to the npm prefix with node-red 4.1.15 installed}"
RED_JS="$NODE_RED_DIR/node_modules/node-red/red.js"
[ -f "$RED_JS" ] || { echo "no node-red in $NODE_RED_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/userdir"
mkdir -p "$HOME_DIR/userdir"
cp "$HERE/seed/settings.js" "$HERE/seed/flows.json" "$HOME_DIR/userdir/"

stop_app_on_signal
# NODE_ENV=production: Express answers a body that is not JSON without a stack trace (no install paths).
# HOME: Node-RED looks there for a .node-red folder when --userDir is not given; keep it in HOME_DIR.
HOME="$HOME_DIR" NODE_ENV=production node "$RED_JS" --userDir "$HOME_DIR/userdir" \
    --settings "$HOME_DIR/userdir/settings.js" --port "$PORT" &
APP_PID=$!
wait_until_up 600 0.2 "node-red did not come up on $PORT" "http://127.0.0.1:$PORT/settings"
echo "node-red READY on $PORT"
wait "$APP_PID"
