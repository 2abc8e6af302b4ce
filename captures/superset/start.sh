#!/usr/bin/env bash
# Start Apache Superset 6.1.0 FRESH on a new SQLite metadata database, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#        ./start.sh --prepare-only HOME_DIR   (make the SUPERSET_TEMPLATE database, start nothing)
#   PORT      the port Superset (gunicorn, one worker) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where superset.db is made (default: mktemp -d); an old one is replaced
# Env:  VENV               virtualenv with apache-superset==6.1.0 (required)
#       SUPERSET_TEMPLATE  optional folder: the migrated, initialised, empty superset.db
#                          (`superset db upgrade`, `fab create-admin`, `init`: ~1 min on 2 cores) is
#                          kept there by the first start, later starts copy it (a second)
# Prints "superset READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The seed (seed.py) runs directly on the app port, never through the recording proxy, with the
# fixed throwaway JWT of the admin (user 1) that superset_config.py's secret key signs.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with apache-superset==6.1.0 installed}"
TOKEN="$(cat "$HERE/token.txt")"

if [ "$PORT" = --prepare-only ]; then
  : "${SUPERSET_TEMPLATE:?--prepare-only needs SUPERSET_TEMPLATE}"
  rm -f "$SUPERSET_TEMPLATE/superset.db"
else
  refuse_taken_port "$PORT"
fi
mkdir -p "$HOME_DIR"
export SUPERSET_HOME="$HOME_DIR" SUPERSET_CONFIG_PATH="$HERE/superset_config.py" FLASK_APP=superset
export SUPERSET_LOG_LEVEL=warning
rm -f "$HOME_DIR/superset.db"
if [ -n "${SUPERSET_TEMPLATE:-}" ] && [ -f "$SUPERSET_TEMPLATE/superset.db" ]; then
  cp "$SUPERSET_TEMPLATE/superset.db" "$HOME_DIR/superset.db"
else
  superset() {  # one step of the metadata database's making, its output in HOME_DIR/init.log
    "$VENV/bin/superset" "$@" >>"$HOME_DIR/init.log" 2>&1 \
      || { echo "superset $1 failed, see $HOME_DIR/init.log" >&2; exit 1; }
  }
  superset db upgrade
  superset fab create-admin --username admin --firstname Ada --lastname Admin \
    --email admin@example.com --password capenv-superset-throwaway
  superset init
  [ -z "${SUPERSET_TEMPLATE:-}" ] || keep_in_template "$HOME_DIR/superset.db" "$SUPERSET_TEMPLATE"
fi
[ "$PORT" = --prepare-only ] && exit 0

stop_app_on_signal
"$VENV/bin/gunicorn" --workers 1 --threads 4 --timeout 120 --bind "127.0.0.1:$PORT" \
  --log-level warning "superset.app:create_app()" &
APP_PID=$!
wait_until_up 600 0.2 "superset did not come up on $PORT" "http://127.0.0.1:$PORT/health"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$TOKEN" "$HOME_DIR/superset.db"
echo "superset READY on $PORT"
wait "$APP_PID"
