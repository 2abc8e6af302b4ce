#!/usr/bin/env bash
# Start Signal K server 2.23.0 FRESH and seeded, security on.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the server listens on (127.0.0.1 only: seed/loopback.js); refused when taken
#   HOME_DIR  where its configuration directory is made (default: mktemp -d): HOME_DIR/config, removed first
# Env:  SIGNALK_DIR  the npm prefix with signalk-server 2.23.0 installed (.ci/live-apps.sh; required)
# Prints "signalk-server READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The configuration directory holds seed/settings.json (token security, no mDNS, no NMEA/TCP stream
# ports, no data providers), seed/baseDeltas.json (the vessel's fixed uuid, name and design) and a
# security.json written here with one admin user (bcrypt of a throwaway password) and a fixed JWT
# secret; its node_modules is a link to the prefix's, where the server finds its bundled plugins
# (resources-provider stores the resources under plugin-config-data/). seed.py then writes the
# resources (under fixed UUIDs, by PUT) and a second user through the server's own API.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
SIGNALK_DIR="${SIGNALK_DIR:?set SIGNALK_DIR to the npm prefix with signalk-server 2.23.0 installed}"
SK="$SIGNALK_DIR/node_modules/signalk-server"
[ -f "$SK/bin/signalk-server" ] || { echo "no signalk-server in $SIGNALK_DIR/node_modules" >&2; exit 2; }
PYTHON="${PYTHON:-python3}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
CONFIG="$HOME_DIR/config"
rm -rf "$CONFIG"
mkdir -p "$CONFIG"
cp "$HERE/seed/settings.json" "$HERE/seed/baseDeltas.json" "$CONFIG/"
ln -s "$SIGNALK_DIR/node_modules" "$CONFIG/node_modules"
HASH="$(cd "$SK" && node -e "console.log(require('bcryptjs').hashSync('skipper-pass-37', 10))")"
cat >"$CONFIG/security.json" <<JSON
{"allow_readonly": true, "expiration": "1d", "secretKey": "capenv-signalk-fixed-secret-0123456789abcdef",
 "users": [{"username": "admin", "type": "admin", "password": "$HASH"}], "devices": [], "acls": [],
 "immutableConfig": false, "allowDeviceAccessRequests": true, "allowNewUserRegistration": true}
JSON

stop_app_on_signal
# SIGNALK_DISABLE_SERVER_UPDATES: no daily look-up of a newer version on npm. HOME: kept in HOME_DIR.
HOME="$HOME_DIR" SIGNALK_DISABLE_SERVER_UPDATES=1 NODE_ENV=production PORT="$PORT" \
  NODE_OPTIONS="--require $HERE/seed/loopback.js" node "$SK/bin/signalk-server" -c "$CONFIG" \
  >"$HOME_DIR/signalk.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "signalk-server did not come up on $PORT" "http://127.0.0.1:$PORT/signalk/v2/api/resources/waypoints"
seed_or_stop "$PYTHON" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "signalk-server READY on $PORT"
wait "$APP_PID"
