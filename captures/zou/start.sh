#!/usr/bin/env bash
# Start Zou 1.0.97 (Kitsu's API server) FRESH on a private, new PostgreSQL cluster, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the API (gunicorn, one sync worker, wsgi.py) listens on (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): previews, temporary files and the cluster in
#             HOME_DIR/pg (under /tmp when the postgres user cannot reach HOME_DIR), listening on
#             127.0.0.1 at PORT+2 (or a free port when that one is taken), trust authentication
# Env:  VENV  virtualenv with zou==1.0.97 and fakeredis (.ci/live-apps.sh; required)
#       initdb, pg_ctl, createdb (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "zou READY on <port>" once seeded; on SIGINT/SIGTERM stops the API and the cluster and
# deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run as the
# `postgres` user (runuser), which then must be able to enter HOME_DIR.
# No Redis: in_memory_kv.py keeps Zou's key-value store in the process (fakeredis), so the token
# blocklist lives and dies with the gunicorn worker. No mail server, indexer, telemetry or event
# stream is reached: mail is never sent by the calls recorded, INDEXER_KEY is unset (search off).
# seed.py makes the starting state in one process before the API serves (`zou init-db`,
# `zou init-data`, `zou create-admin`, then the seed through the API with reproducible ids and
# clocks); EVENT_HANDLERS_FOLDER names no folder, so no event handler plugin loads.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with zou==1.0.97 and fakeredis installed}"
DATABASE=zoudb

refuse_taken_port "$PORT"
start_private_postgres zou "$PORT" "$HOME_DIR" "$DATABASE"
export DB_HOST=127.0.0.1 DB_PORT="$PG_PORT" DB_USERNAME=postgres DB_PASSWORD=unused DB_DATABASE="$DATABASE" \
  DB_POOL_SIZE=2 DB_MAX_OVERFLOW=2 SECRET_KEY=capenv-zou-throwaway-secret-key-0001 CACHE_TYPE=simple \
  KV_HOST=127.0.0.1 KV_PORT=9 BCRYPT_LOG_ROUNDS=4 MAIL_CHECK_DELIVERABILITY=false DOMAIN_NAME=zou.capenv.test DOMAIN_PROTOCOL=http \
  PREVIEW_FOLDER="$HOME_DIR/previews" TMP_DIR="$HOME_DIR/tmp" EVENT_HANDLERS_FOLDER="$HOME_DIR/event_handlers" \
  PLUGIN_FOLDER="$HOME_DIR/plugins" USER_LIMIT=100 PYTHONHASHSEED=0 TZ=UTC \
  PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$HOME_DIR/previews" "$HOME_DIR/tmp" "$HOME_DIR/plugins"
cd "$HOME_DIR"
"$VENV/bin/python" "$HERE/seed.py" >"$HOME_DIR/setup.log" 2>&1 || { cat "$HOME_DIR/setup.log" >&2; exit 1; }
"$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 --chdir "$HERE" \
  wsgi:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "zou did not come up on $PORT" "http://127.0.0.1:$PORT/"
echo "zou READY on $PORT"
wait "$APP_PID"
