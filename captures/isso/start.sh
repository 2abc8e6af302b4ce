#!/usr/bin/env bash
# Start Isso 0.14.0 (a Werkzeug app on SQLite) FRESH on a new database, then seed it through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Isso listens on (127.0.0.1); refused when taken
#   HOME_DIR  where isso.cfg, the SQLite file and the log are made (default: mktemp -d); old ones are replaced
# Env:  VENV  virtualenv with isso==0.14.0 installed (required)
# Prints "isso READY on <port>" once up and seeded; stops on SIGINT/SIGTERM.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with isso==0.14.0 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -f "$HOME_DIR/comments.db" "$HOME_DIR/isso.log"
sed -e "s|@HOME@|$HOME_DIR|g" -e "s|@PORT@|$PORT|g" "$HERE/isso.cfg" >"$HOME_DIR/isso.cfg"

stop_app_on_signal
"$VENV/bin/isso" -c "$HOME_DIR/isso.cfg" run >"$HOME_DIR/stdout.log" 2>&1 &
APP_PID=$!
wait_until_up 300 0.2 "isso did not come up on $PORT" "http://127.0.0.1:$PORT/config"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "isso READY on $PORT"
wait "$APP_PID"
