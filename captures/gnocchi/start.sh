#!/usr/bin/env bash
# Start Gnocchi 4.7.1 FRESH on a private, new PostgreSQL cluster (the indexer) with file storage, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the API (gunicorn, one sync worker, wsgi.py) listens on (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): gnocchi.conf, the file storage and the file
#             incoming store (HOME_DIR/storage, both drivers under one base path), and the cluster in
#             HOME_DIR/pg (an old one is removed; under /tmp when the postgres user cannot reach
#             HOME_DIR), listening on 127.0.0.1 at PORT+2 (or a free port when that one is taken),
#             trust authentication, loopback only
# Env:  VENV  virtualenv with gnocchi==4.7.1, psycopg2 and gunicorn installed (.ci/live-apps.sh; required)
#       initdb, pg_ctl, createdb, psql (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "gnocchi READY on <port>" once seeded; on SIGINT/SIGTERM stops the API and the cluster and
# deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run as the
# `postgres` user (runuser), which then must be able to enter HOME_DIR.
# api.auth_mode = basic: a request names its user in HTTP Basic (`admin`, no password: Gnocchi checks
# none; the user `admin` holds the admin role). `gnocchi-upgrade` makes the schema, the default
# archive policies (bool, low, medium, high) and the archive policy rule `default` (`*` -> low).
# No gnocchi-metricd runs: measures posted stay in the incoming store until a read asks
# `?refresh=true`, which aggregates them in the request (deterministic, no background worker).
# The seed (seed.py, directly on the app port, never through the recording proxy): a resource type,
# resources with fixed ids and metrics whose random ids it then fixes in PostgreSQL.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with gnocchi==4.7.1 and gunicorn installed}"
DATABASE=gnocchi

refuse_taken_port "$PORT"
start_private_postgres gnocchi "$PORT" "$HOME_DIR" "$DATABASE"
rm -rf "$HOME_DIR/storage"
mkdir -p "$HOME_DIR/storage"
cat >"$HOME_DIR/gnocchi.conf" <<CFG
[DEFAULT]
use_stderr = true
parallel_operations = 1
[api]
auth_mode = basic
[indexer]
url = postgresql://postgres@127.0.0.1:$PG_PORT/$DATABASE
[storage]
driver = file
file_basepath = $HOME_DIR/storage
[incoming]
driver = file
file_basepath = $HOME_DIR/storage
CFG
# Python salts its string hashes per process unless told not to: Gnocchi keeps aggregation methods in a set,
# so their order in every answer would change from one start to the next.
export PYTHONHASHSEED=0
export GNOCCHI_CONFIG_FILE="$HOME_DIR/gnocchi.conf"
"$VENV/bin/gnocchi-upgrade" --config-file "$GNOCCHI_CONFIG_FILE" >"$HOME_DIR/upgrade.log" 2>&1 \
  || { cat "$HOME_DIR/upgrade.log" >&2; exit 1; }

cd "$HOME_DIR"
"$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 --chdir "$HERE" \
  --control-socket "$HOME_DIR/gunicorn.ctl" wsgi:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "gnocchi did not come up on $PORT" -u admin: "http://127.0.0.1:$PORT/v1/archive_policy"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$PG_BIN/psql" "$PG_PORT" "$DATABASE"
echo "gnocchi READY on $PORT"
wait "$APP_PID"
