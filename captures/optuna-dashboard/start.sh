#!/usr/bin/env bash
# Start optuna-dashboard 0.21.0 (Bottle, Optuna's RDB storage on SQLite) FRESH on a new database seeded first.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the dashboard's threaded wsgiref server listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the SQLite file is made (default: mktemp -d); an old one there is replaced
# Env:  VENV  virtualenv with optuna-dashboard==0.21.0 and optuna==5.1.0 installed (required)
# Prints "optuna-dashboard READY on <port>" once up; stops on SIGINT/SIGTERM.
# The seed (seed.py) writes the studies and trials through Optuna's storage API before the server
# starts: the dashboard's API has no trial create, and every seed gives the same ids and times.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with optuna-dashboard==0.21.0 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -f "$HOME_DIR/optuna.sqlite3"
"$VENV/bin/python" "$HERE/seed.py" "$HOME_DIR/optuna.sqlite3" || { echo "seeding failed" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/optuna-dashboard" "sqlite:///$HOME_DIR/optuna.sqlite3" --host 127.0.0.1 --port "$PORT" \
  --server wsgiref >"$HOME_DIR/dashboard.log" 2>&1 &
APP_PID=$!
wait_until_up 300 0.2 "optuna-dashboard did not come up on $PORT" "http://127.0.0.1:$PORT/api/meta"
echo "optuna-dashboard READY on $PORT"
wait "$APP_PID"
