#!/usr/bin/env bash
# Start ARA Records Ansible 1.8.0's API server FRESH on a new SQLite database, then seed it through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gunicorn (one sync worker, wsgi.py) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the settings file and the database are made (default: mktemp -d); an old one
#             there is replaced
# Env:  VENV  virtualenv with ara[server]==1.8.0 and gunicorn installed (required)
# Prints "ara READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# settings.yaml (ARA_SETTINGS) fixes a throwaway SECRET_KEY, the UTC time zone, no login for reads
# or writes (ARA's own default: the API is open on loopback) and the database under HOME_DIR;
# `ara-manage migrate` makes the schema in a few seconds. gunicorn serves wsgi.py, which fixes
# every request's Host to 127.0.0.1 so the page links (`next`, `previous`) name no port.
# The seed (seed.py) runs directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with ara[server]==1.8.0 and gunicorn installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/server"
mkdir -p "$HOME_DIR/server"
cat >"$HOME_DIR/server/settings.yaml" <<SETTINGS
---
default:
  BASE_DIR: $HOME_DIR/server
  DATABASE_ENGINE: django.db.backends.sqlite3
  DATABASE_NAME: $HOME_DIR/server/ansible.sqlite
  SECRET_KEY: capenv-ara-throwaway-secret-key-0123456789
  TIME_ZONE: UTC
  DEBUG: false
  LOG_LEVEL: INFO
  READ_LOGIN_REQUIRED: false
  WRITE_LOGIN_REQUIRED: false
  ALLOWED_HOSTS: ["127.0.0.1", "localhost", "::1"]
  PAGE_SIZE: 100
SETTINGS
export ARA_SETTINGS="$HOME_DIR/server/settings.yaml" ARA_BASE_DIR="$HOME_DIR/server"
"$VENV/bin/ara-manage" migrate >"$HOME_DIR/migrate.log" 2>&1 || { cat "$HOME_DIR/migrate.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/gunicorn" --chdir "$HERE" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" wsgi:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "ARA did not come up on $PORT" "http://127.0.0.1:$PORT/api/v1/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "ara READY on $PORT"
wait "$APP_PID"
