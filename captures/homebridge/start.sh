#!/usr/bin/env bash
# Start Homebridge Config UI X 5.10.0 (its NestJS API, standalone, beside homebridge 1.11.4) FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the UI's API listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where its storage directory is made (default: mktemp -d): HOME_DIR/storage, removed first
# Env:  HOMEBRIDGE_DIR  the npm prefix with homebridge-config-ui-x 5.10.0 and homebridge 1.11.4
#       installed (.ci/live-apps.sh; required)
# Prints "homebridge READY on <port>" once the API answers and seed.py has made its users; stops on
# SIGINT/SIGTERM.
# What no API of the UI writes is copied from ./seed before the server starts, so any day's start
# answers the same: config.json (the bridge, one accessory block, the UI's own platform block with
# scheduled backups off, and one child-bridge platform), a fixed .uix-secrets (the JWT secret and so
# the instance id),
# cached accessories (three on the main bridge, one on the child bridge) and three bridges' pairing
# files (persist/AccessoryInfo.*.json). No Homebridge process runs: the UI answers for the files.
# The users are made through the UI's own API by seed.py (the setup wizard's first user, then two).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
HOMEBRIDGE_DIR="${HOMEBRIDGE_DIR:?set HOMEBRIDGE_DIR to the npm prefix with homebridge-config-ui-x 5.10.0 installed}"
UI_JS="$HOMEBRIDGE_DIR/node_modules/homebridge-config-ui-x/dist/bin/standalone.js"
[ -f "$UI_JS" ] || { echo "no homebridge-config-ui-x in $HOMEBRIDGE_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
STORAGE="$HOME_DIR/storage"
rm -rf "$STORAGE"
mkdir -p "$STORAGE/accessories" "$STORAGE/persist"
sed 's/"port": 8581,/"port": '"$PORT"',/' "$HERE/seed/config.json" >"$STORAGE/config.json"
cp "$HERE/seed/uix-secrets.json" "$STORAGE/.uix-secrets"
cp "$HERE/seed/cachedAccessories" "$HERE/seed/cachedAccessories.0EAABBCCDD01" "$STORAGE/accessories/"
cp "$HERE"/seed/AccessoryInfo.*.json "$STORAGE/persist/"

stop_app_on_signal
# HOME: the UI looks for ~/.homebridge and npm's folders there; keep it in HOME_DIR. The working
# directory is the storage: the UI block names its scheduled-backup folder relatively (backups/...),
# so no answer names this machine's paths.
cd "$STORAGE"
HOME="$HOME_DIR" NODE_ENV=production node "$UI_JS" -U "$STORAGE" -I -T >"$HOME_DIR/ui.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "homebridge-config-ui-x did not come up on $PORT" "http://127.0.0.1:$PORT/api/auth/settings"
# The UI reads its own port from config.json once, at its start; the file it then reads and writes
# for every call names the UI's default port 8581 instead, so the whole config and the UI's block
# read the same whatever PORT a start was given (the capture's and a live comparison's differ).
cp "$HERE/seed/config.json" "$STORAGE/config.json"
python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" || fail_and_stop "seeding failed"
echo "homebridge READY on $PORT"
wait "$APP_PID"
