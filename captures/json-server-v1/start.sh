#!/usr/bin/env bash
# Start json-server 1.0.0-beta.15 FRESH from seed.json.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port json-server listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  its working directory (default: mktemp -d): seed.json is copied there as db.json,
#             which json-server rewrites on every write (the seed itself is never modified)
# Env:  JSON_SERVER_V1_DIR  the npm prefix with json-server 1.0.0-beta.15 installed
#             (.ci/live-apps.sh installs it into .ci/cache/npm-json-server-v1; required)
# Prints "json-server-v1 READY on <port>" once it answers; stops on SIGINT/SIGTERM.
# No seed.py: json-server 1.0 gives every created item a random id, so a seed made through its
# API would differ on every start; the seed file is the application's own way of being seeded
# (numeric ids in it are read as strings: users 1-3 are answered as "1"-"3").
# NODE_ENV=production turns off json-server's watcher of db.json: it reloads the file when it changes
# and, with calls back to back, could reload it between two of its own writes and lose the second
# (a PATCH answered 200 whose next read showed the old value). Production's static middleware
# needs a ./public folder: an empty one.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
JSON_SERVER_V1_DIR="${JSON_SERVER_V1_DIR:?set JSON_SERVER_V1_DIR to the npm prefix with json-server 1.0.0-beta.15}"
BIN="$JSON_SERVER_V1_DIR/node_modules/.bin/json-server"
[ -x "$BIN" ] || { echo "no json-server in $JSON_SERVER_V1_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
cp "$HERE/seed.json" "$HOME_DIR/db.json"
rm -rf "$HOME_DIR/public" && mkdir "$HOME_DIR/public"   # empty: nothing static is served
cd "$HOME_DIR"

stop_app_on_signal
NODE_ENV=production "$BIN" --host 127.0.0.1 --port "$PORT" "$HOME_DIR/db.json" >"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 300 0.2 "json-server did not come up on $PORT" "http://127.0.0.1:$PORT/profile"
echo "json-server-v1 READY on $PORT"
wait "$APP_PID"
