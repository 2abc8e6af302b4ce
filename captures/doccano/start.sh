#!/usr/bin/env bash
# Start doccano 1.8.5's API (Django REST Framework on SQLite) FRESH on a new database, then seed it
# through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gunicorn (one sync worker, wsgi.py) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the database and media folder are made (default: mktemp -d); an old one there
#             is replaced
# Env:  VENV  virtualenv with doccano==1.8.5 installed (it brings gunicorn) (required)
# Prints "doccano READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# `doccano init` migrates the schema and makes the three roles; `doccano createuser` makes the
# admin (fixed throwaway password). No task queue runs: the capture uses none of the celery parts
# (file upload/import, export, auto labeling). gunicorn serves wsgi.py, which fixes every request's
# Host to 127.0.0.1 so the page links (`next`, `previous`) name no port.
# fixed_tokens.py then gives admin and annotator1 fixed tokens.
# The seed (seed.py) runs directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with doccano==1.8.5 installed}"

# Fixed throwaway API tokens (fixed_tokens.py): the login answers them, the probes send them.
ADMIN_TOKEN="capenv0doccano0throwaway0admin0token0001"
ANNOTATOR_TOKEN="capenv0doccano0throwaway0annotator00001"
refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/doccano"
mkdir -p "$HOME_DIR/doccano/media"
BACKEND="$("$VENV/bin/python" -c 'import backend, os; print(os.path.dirname(backend.__file__))')"
export DOCCANO_HOME="$HOME_DIR/doccano" DATABASE_URL="sqlite:///$HOME_DIR/doccano/db.sqlite3" \
  MEDIA_ROOT="$HOME_DIR/doccano/media" SECRET_KEY="capenv-doccano-throwaway-secret-key-0123456789" \
  DEBUG=False DJANGO_SETTINGS_MODULE=config.settings.production TZ=UTC
"$VENV/bin/doccano" init >"$HOME_DIR/init.log" 2>&1 || { cat "$HOME_DIR/init.log" >&2; exit 1; }
"$VENV/bin/doccano" createuser --username admin --password capenv-admin-pass \
  --email admin@example.com >>"$HOME_DIR/init.log" 2>&1 || { cat "$HOME_DIR/init.log" >&2; exit 1; }

stop_app_on_signal
PYTHONPATH="$BACKEND" "$VENV/bin/gunicorn" --chdir "$HERE" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  wsgi:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
# /v1/health/ asks the (absent) task queue and fails: the login answers once Django serves.
wait_until_up 600 0.2 "doccano did not come up on $PORT" -X POST -H "Content-Type: application/json" \
  -d "{\"username\": \"admin\", \"password\": \"capenv-admin-pass\"}" "http://127.0.0.1:$PORT/v1/auth/login/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
seed_or_stop "$VENV/bin/python" "$HERE/fixed_tokens.py" "admin=$ADMIN_TOKEN" "annotator1=$ANNOTATOR_TOKEN"
echo "doccano READY on $PORT"
wait "$APP_PID"
