#!/usr/bin/env bash
# Start I Hate Money 7.2.1 (Flask, SQLite) FRESH on a new database, then seed it through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gunicorn (one sync worker, ihatemoney.wsgi) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the settings file and the database are made (default: mktemp -d); an old one
#             there is replaced
# Env:  VENV  virtualenv with ihatemoney==7.2.1 and gunicorn installed (required)
# Prints "ihatemoney READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# ihatemoney.cfg (IHATEMONEY_SETTINGS_FILE_PATH) fixes a throwaway SECRET_KEY, the database under
# HOME_DIR, no demo project, public project creation (the API's POST /api/projects needs it), no
# mail sent (MAIL_SUPPRESS_SEND: a project create or update would otherwise try an SMTP server) and
# no rate limits. The schema is made by the application's own migrations on its first start.
# Every currency the seed and the driver use is a project's own or XXX (none), so no bill needs a
# conversion rate (those are fetched from the internet).
# The seed (seed.py) runs directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with ihatemoney==7.2.1 and gunicorn installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/server"
mkdir -p "$HOME_DIR/server"
cat >"$HOME_DIR/server/ihatemoney.cfg" <<SETTINGS
SQLALCHEMY_DATABASE_URI = "sqlite:///$HOME_DIR/server/ihatemoney.db"
SECRET_KEY = "capenv-ihatemoney-throwaway-secret-key-0123456789"
ACTIVATE_DEMO_PROJECT = False
ALLOW_PUBLIC_PROJECT_CREATION = True
ACTIVATE_ADMIN_DASHBOARD = False
MAIL_SUPPRESS_SEND = True
RATELIMIT_ENABLED = False
BABEL_DEFAULT_TIMEZONE = "UTC"
SETTINGS
export IHATEMONEY_SETTINGS_FILE_PATH="$HOME_DIR/server/ihatemoney.cfg"

stop_app_on_signal
(cd "$HOME_DIR/server" && exec "$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" ihatemoney.wsgi:application) >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "I Hate Money did not come up on $PORT" "http://127.0.0.1:$PORT/api/currencies"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "ihatemoney READY on $PORT"
wait "$APP_PID"
