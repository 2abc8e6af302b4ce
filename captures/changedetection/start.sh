#!/usr/bin/env bash
# Start changedetection.io 0.60.10 FRESH on a new datastore written by datastore.py (fixed API key,
# two tags, two watches, every check paused), on 127.0.0.1:PORT (its own Flask/Werkzeug server).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the app listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the datastore is made (default: mktemp -d); an old one is replaced
# Env:  VENV  virtualenv with changedetection.io==0.60.10 installed (required)
# Prints "changedetection READY on <port>" once up; stops on SIGINT/SIGTERM.
# No watch is ever fetched: all_paused is set (the scheduler queues nothing) and every watch URL
# names a loopback port nobody serves. launch.py lists the datastore's folders in name order, so the
# seeded watches and tags are listed in one order on every file system (see its docstring).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with changedetection.io==0.60.10 installed}"
API_KEY=capenv0changedetection0throwaway
DATA="$HOME_DIR/datastore"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$DATA"
"$VENV/bin/python" "$HERE/datastore.py" "$DATA"

stop_app_on_signal
# DISABLED_PROCESSORS and the rest are the app's defaults; LOGGER_LEVEL keeps the log short.
(cd "$HOME_DIR" && LOGGER_LEVEL=WARNING exec "$VENV/bin/python" "$HERE/launch.py" -d "$DATA" -h 127.0.0.1 -p "$PORT") \
  >"$HOME_DIR/changedetection.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "changedetection did not come up on $PORT" \
  -H "x-api-key: $API_KEY" "http://127.0.0.1:$PORT/api/v1/systeminfo"
echo "changedetection READY on $PORT"
wait "$APP_PID"
