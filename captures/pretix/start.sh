#!/usr/bin/env bash
# Start pretix 2026.8.0 FRESH on a new home directory (SQLite, no Redis, no Celery: tasks run in
# the request), then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gunicorn (one sync worker, pretix.wsgi) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where pretix.cfg and the data directory (db.sqlite3) are made (default: mktemp -d);
#             an old one is replaced
# Env:  VENV  virtualenv with pretix==2026.8.0 and gunicorn installed (required)
#       PRETIX_TEMPLATE  optional folder: the seeded database (db.sqlite3) of an earlier start,
#             copied instead of migrating (several minutes) and seeding again (kept there by the
#             first start)
# Prints "pretix READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# Fixed, throwaway: the Django secret, the admin's password and the team API token (token.txt).
# seed_db.py makes the admin, the organizer `capenv` and the token through the ORM before the
# server starts; seed.py the events and what is in them through the API. Every date in the seed
# is given (none defaults to the day it runs). Links name the configured url,
# http://127.0.0.1:8000, whatever PORT is (pretix answers any port of that host).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with pretix==2026.8.0 and gunicorn installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/data"
mkdir -p "$HOME_DIR/data"
CFG="$HOME_DIR/pretix.cfg"
cat >"$CFG" <<CFG
[pretix]
instance_name=capenv pretix
url=http://127.0.0.1:8000
datadir=$HOME_DIR/data
currency=EUR
registration=off
[database]
backend=sqlite3
name=$HOME_DIR/data/db.sqlite3
[django]
secret=capenv-pretix-throwaway-secret
debug=off
[mail]
from=pretix@capenv.test
host=127.0.0.1
port=1
CFG
export PRETIX_CONFIG_FILE="$CFG"
SEEDED=""
if [ -n "${PRETIX_TEMPLATE:-}" ] && [ -f "$PRETIX_TEMPLATE/db.sqlite3" ]; then
  cp "$PRETIX_TEMPLATE/db.sqlite3" "$HOME_DIR/data/db.sqlite3"
  SEEDED=yes
else
  (cd "$HOME_DIR" && "$VENV/bin/python" -m pretix migrate >"$HOME_DIR/migrate.log" 2>&1)
  (cd "$HOME_DIR" && "$VENV/bin/python" "$HERE/seed_db.py")
fi

stop_app_on_signal
(cd "$HOME_DIR" && exec "$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" pretix.wsgi >"$HOME_DIR/gunicorn.log" 2>&1) &
APP_PID=$!
wait_until_up 600 0.2 "pretix did not come up on $PORT" "http://127.0.0.1:$PORT/robots.txt"
if [ -z "$SEEDED" ]; then
  seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$HOME_DIR/data/db.sqlite3"
  [ -z "${PRETIX_TEMPLATE:-}" ] || keep_in_template "$HOME_DIR/data/db.sqlite3" "$PRETIX_TEMPLATE"
fi
echo "pretix READY on $PORT"
wait "$APP_PID"
