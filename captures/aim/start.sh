#!/usr/bin/env bash
# Start Aim 3.29.1 (`aim up`: FastAPI under uvicorn, its SQLite stores and RocksDB) FRESH on a new repository, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port `aim up` listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the repository (HOME_DIR/repo/.aim) and the logs are made (default: mktemp -d); an old
#             repository there is replaced
# Env:  VENV  virtualenv with aim==3.29.1 installed (.ci/live-apps.sh; required)
# Prints "aim READY on <port>" once seeded; stops the server on SIGINT/SIGTERM.
# One uvicorn worker (aim's default is 2). No auth. The seed (seed.py) makes runs, experiments and tags by the SDK before the server starts
# (their UUIDs and run hashes from a fixed sequence), then, the server up, notes, explore states and
# dashboards through the API; the server is stopped, the explore states' and dashboards' time-based ids
# are replaced by fixed ones in its store, and it is started again on the same repository (~15-30 s in
# all). Nothing leaves loopback: the UI's telemetry is off (AIM_UI_TELEMETRY_ENABLED=0) and the server
# itself sends none.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with aim==3.29.1 installed}"
export AIM_UI_TELEMETRY_ENABLED=0 NO_COLOR=1

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/repo"
mkdir -p "$HOME_DIR/repo"
cd "$HOME_DIR/repo"
"$VENV/bin/aim" init --repo "$HOME_DIR/repo" >"$HOME_DIR/setup.log" 2>&1
"$VENV/bin/python" "$HERE/seed.py" runs "$HOME_DIR/repo" >>"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }
# `aim up` migrates its web database, then runs uvicorn as its child and waits on it: stopping the
# server stops that child first (a SIGTERM to `aim up` alone would leave it serving).
stop_aim() { pkill -TERM -P "$APP_PID" 2>/dev/null; kill -TERM "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null; }
stop_app() { [ -n "$APP_PID" ] && stop_aim; exit 0; }
fail_and_stop() { echo "$1" >&2; stop_aim; exit 1; }
stop_app_on_signal
run_aim() {  # LOG: the server in the background on PORT, APP_PID its pid, returns once it answers
  "$VENV/bin/aim" up --host 127.0.0.1 --port "$PORT" --workers 1 --repo "$HOME_DIR/repo" >"$HOME_DIR/$1" 2>&1 &
  APP_PID=$!
  wait_until_up 600 0.2 "aim did not come up on $PORT: $(tail -5 "$HOME_DIR/$1" 2>/dev/null)" \
    "http://127.0.0.1:$PORT/api/projects/"
}
run_aim seed.log
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" web "http://127.0.0.1:$PORT" >>"$HOME_DIR/setup.log" 2>&1
stop_aim || true; APP_PID=""
for i in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || break; sleep 0.2; done
"$VENV/bin/python" "$HERE/seed.py" fix "$HOME_DIR/repo" >>"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }
run_aim aim.log
echo "aim READY on $PORT"
wait "$APP_PID"
