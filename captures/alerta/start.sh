#!/usr/bin/env bash
# Start Alerta 9.1.0 (alerta-server) FRESH on a private, new PostgreSQL cluster, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the API (gunicorn, one sync worker, alerta.app:create_app()) listens on
#             (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): alertad.conf and the cluster in HOME_DIR/pg
#             (an old one is removed; under /tmp when the postgres user cannot reach HOME_DIR),
#             listening on 127.0.0.1 at PORT+2 (or a free port when that one is taken), trust
#             authentication, loopback only
# Env:  VENV  virtualenv with alerta-server==9.1.0, psycopg2-binary and gunicorn (.ci/live-apps.sh; required)
#       initdb, pg_ctl, createdb, psql (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "alerta READY on <port>" once seeded; on SIGINT/SIGTERM stops the API and the cluster and
# deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run as the
# `postgres` user (runuser), which then must be able to enter HOME_DIR.
# BASE_URL: every href names http://alerta.capenv.test (Alerta's setting for a public URL behind a proxy),
# not the host the request came to, so answers are alike whatever port serves them.
# AUTH_REQUIRED: every call sends `Authorization: Key <API_KEY>`, an admin key `alertad key` makes
# with a fixed value for the admin user `alertad user` makes (both before the API starts).
# The seed (seed.py, directly on the app port, never through the recording proxy): alerts, a
# blackout, heartbeats, a customer, a group, a permission; it then fixes the random ids and the
# clocks in PostgreSQL so every start answers alike.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with alerta-server==9.1.0, psycopg2-binary and gunicorn installed}"
DATABASE=monitoring
API_KEY="capenv-alerta-admin-key-0000000000000001"

refuse_taken_port "$PORT"
start_private_postgres alerta "$PORT" "$HOME_DIR" "$DATABASE"
cat >"$HOME_DIR/alertad.conf" <<CFG
DATABASE_URL = 'postgres://postgres@127.0.0.1:$PG_PORT/$DATABASE'
SECRET_KEY = 'capenv-alerta-throwaway-secret'
BASE_URL = 'http://alerta.capenv.test'
AUTH_REQUIRED = True
ADMIN_USERS = ['admin@capenv.test']
SIGNUP_ENABLED = False
PLUGINS = ['reject', 'heartbeat', 'blackout']
LOG_LEVEL = 'WARNING'
CFG
export ALERTA_SVR_CONF_FILE="$HOME_DIR/alertad.conf" PYTHONHASHSEED=0 TZ=UTC
cd "$HOME_DIR"
"$VENV/bin/alertad" user --email admin@capenv.test --name Admin --password capenv-throwaway >"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }
"$VENV/bin/alertad" key --username admin@capenv.test --key "$API_KEY" --text "capenv admin key" >>"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }
"$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  'alerta.app:create_app()' >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "alerta did not come up on $PORT" -H "Authorization: Key $API_KEY" "http://127.0.0.1:$PORT/alerts"
if [ -f "$HERE/seed.py" ]; then
  seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$API_KEY" "$PG_BIN/psql" "$PG_PORT" "$DATABASE"
fi
echo "alerta READY on $PORT"
wait "$APP_PID"
