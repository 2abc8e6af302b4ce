#!/usr/bin/env bash
# Start Chroma (chromadb 1.5.9: the Rust server behind `chroma run`) FRESH on a new data directory, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the v2 API's port (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): data/ (chroma.sqlite3 and the vector segments), logs
# Env:  VENV  virtualenv with chromadb==1.5.9 installed (.ci/live-apps.sh; required)
# Prints "chroma READY on <port>" once seeded; stops the server on SIGINT/SIGTERM.
# No auth. The seed (seed.py) is written through the API on a first start (~2 s), then the server is
# stopped, the seeded collections' random ids are replaced by fixed ones in its SQLite store and the
# server is started again on the same data (~2 s). Every embedding is sent by the client: no model
# is ever downloaded, nothing leaves loopback. Telemetry off (ANONYMIZED_TELEMETRY=False).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with chromadb==1.5.9 installed}"
export ANONYMIZED_TELEMETRY=False NO_COLOR=1

refuse_taken_port "$PORT"
rm -rf "$HOME_DIR/data"
mkdir -p "$HOME_DIR/data"
cd "$HOME_DIR"
# The server ignores SIGTERM and stops on SIGINT: start-steps.sh's stop_app and fail_and_stop, sending SIGINT.
stop_app() { [ -n "$APP_PID" ] && kill -INT "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null; exit 0; }
fail_and_stop() { echo "$1" >&2; kill -INT "$APP_PID" 2>/dev/null; exit 1; }
stop_app_on_signal
run_chroma() {  # LOG: the server in the background on PORT, APP_PID its pid, returns once it answers
  "$VENV/bin/chroma" run --path "$HOME_DIR/data" --host 127.0.0.1 --port "$PORT" >"$HOME_DIR/$1" 2>&1 &
  APP_PID=$!
  wait_until_up 300 0.2 "chroma did not come up on $PORT: $(tail -5 "$HOME_DIR/$1" 2>/dev/null)" \
    "http://127.0.0.1:$PORT/api/v2/heartbeat"
}
run_chroma seed.log
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "$PORT" "$HOME_DIR/data" seed >"$HOME_DIR/setup.log" 2>&1
kill -INT "$APP_PID"; wait "$APP_PID" 2>/dev/null || true; APP_PID=""
"$VENV/bin/python" "$HERE/seed.py" "$PORT" "$HOME_DIR/data" fix >>"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }
run_chroma chroma.log
echo "chroma READY on $PORT"
wait "$APP_PID"
