#!/usr/bin/env bash
# Start pretalx 2026.2.1 FRESH on a new home directory (SQLite, no Redis: capenv_settings.py keeps
# the cache in memory, no Celery: pretalx runs its tasks in the request), then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gunicorn (one sync worker, pretalx.wsgi) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where pretalx.cfg and the data directory (db.sqlite3) are made (default: mktemp -d);
#             an old one is replaced
# Env:  VENV  virtualenv (Python 3.13) with pretalx==2026.2.1 and gunicorn installed (required)
#       PRETALX_TEMPLATE  optional folder: the seeded database (db.sqlite3) of an earlier start,
#             copied instead of migrating and seeding again (kept there by the first start)
# Prints "pretalx READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# Fixed, throwaway: the Django secret, the admin's password and the API token (token.txt).
# seed_db.py makes the admin, the organiser `capenv`, the events and the token through the ORM
# before the server starts; seed.py what is in the events through the API, then fixes the values
# the API cannot set (speaker and submission codes, created/updated stamps). Every date in the
# seed is given (none defaults to the day it runs).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with pretalx==2026.2.1 and gunicorn installed}"
VENV="$(cd "$VENV" && pwd)"  # absolute, as the template folder: the steps below run inside HOME_DIR
if [ -n "${PRETALX_TEMPLATE:-}" ]; then
  mkdir -p "$PRETALX_TEMPLATE" && PRETALX_TEMPLATE="$(cd "$PRETALX_TEMPLATE" && pwd)"
fi

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/data"
mkdir -p "$HOME_DIR/data"
CFG="$HOME_DIR/pretalx.cfg"
cat >"$CFG" <<CFG
[filesystem]
data=$HOME_DIR/data
[site]
debug=False
url=http://127.0.0.1:8000
secret=capenv-pretalx-throwaway-secret
[database]
backend=sqlite3
name=$HOME_DIR/data/db.sqlite3
[redis]
location=
session=False
[mail]
from=pretalx@capenv.test
host=127.0.0.1
port=1
[locale]
language_code=en
time_zone=UTC
CFG
export PRETALX_CONFIG_FILE="$CFG" DJANGO_SETTINGS_MODULE=capenv_settings PYTHONPATH="$HERE"
SEEDED=""
if [ -n "${PRETALX_TEMPLATE:-}" ] && [ -f "$PRETALX_TEMPLATE/db.sqlite3" ]; then
  cp "$PRETALX_TEMPLATE/db.sqlite3" "$HOME_DIR/data/db.sqlite3"
  SEEDED=yes
else
  (cd "$HOME_DIR" && "$VENV/bin/python" -m pretalx migrate >"$HOME_DIR/migrate.log" 2>&1)
  (cd "$HOME_DIR" && "$VENV/bin/python" "$HERE/seed_db.py")
fi

stop_app_on_signal
(cd "$HOME_DIR" && exec "$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" pretalx.wsgi >"$HOME_DIR/gunicorn.log" 2>&1) &
APP_PID=$!
wait_until_up 600 0.2 "pretalx did not come up on $PORT" "http://127.0.0.1:$PORT/api/events/"
if [ -z "$SEEDED" ]; then
  seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$HOME_DIR/data/db.sqlite3"
  [ -z "${PRETALX_TEMPLATE:-}" ] || keep_in_template "$HOME_DIR/data/db.sqlite3" "$PRETALX_TEMPLATE"
fi
echo "pretalx READY on $PORT"
wait "$APP_PID"
