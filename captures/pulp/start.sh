#!/usr/bin/env bash
# Start Pulp 3 (pulpcore 3.123.1 with its file plugin) FRESH on a private PostgreSQL cluster, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the API's port (pulpcore-api: gunicorn, one worker, 127.0.0.1); refused when taken.
#             PostgreSQL listens on PORT+2 (or a free port) for the time the application runs.
#   HOME_DIR  its working directory (default: mktemp -d): settings.py, the database key, media/, logs
# Env:  VENV  virtualenv with pulpcore==3.123.1 installed (.ci/live-apps.sh; required)
# Prints "pulp READY on <port>" once seeded; stops the API, the task worker and the cluster on SIGINT/SIGTERM.
# Auth: HTTP Basic, admin:password. One task worker (pulpcore-worker) runs the asynchronous writes
# (updates and deletes of repositories, remotes and distributions answer 202 with a task). No Redis
# (CACHE_ENABLED false), no content app: nothing is ever synced or served, nothing leaves loopback.
# The migrations take ~20 s; the seed (seed.py, through the API in one process) ~5 s.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with pulpcore==3.123.1 installed}"

refuse_taken_port "$PORT"
start_private_postgres pulp "$PORT" "$HOME_DIR" pulp
rm -rf "$HOME_DIR/media" "$HOME_DIR/static"
mkdir -p "$HOME_DIR/media/tmp" "$HOME_DIR/static"
# A fixed key for the encrypted database fields (remotes' passwords): this is a throwaway instance.
printf 'Y2FwZW52LXB1bHAtZml4ZWQtZGIta2V5LTMyYnl0ZXM=\n' >"$HOME_DIR/db.key"
cat >"$HOME_DIR/settings.py" <<CFG
SECRET_KEY = "capenv-pulp-throwaway"
CONTENT_ORIGIN = "http://127.0.0.1:24816"
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "pulp", "USER": "postgres",
                         "HOST": "127.0.0.1", "PORT": "$PG_PORT"}}
DB_ENCRYPTION_KEY = "$HOME_DIR/db.key"
MEDIA_ROOT = "$HOME_DIR/media"
STATIC_ROOT = "$HOME_DIR/static"
WORKING_DIRECTORY = "$HOME_DIR/media/tmp"
FILE_UPLOAD_TEMP_DIR = "$HOME_DIR/media/tmp"
STORAGES = {"default": {"BACKEND": "pulpcore.app.models.storage.FileSystem"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
CACHE_ENABLED = False
TELEMETRY = False
CFG
export PULP_SETTINGS="$HOME_DIR/settings.py" DJANGO_SETTINGS_MODULE=pulpcore.app.settings
cd "$HOME_DIR"
{ "$VENV/bin/pulpcore-manager" migrate --noinput \
    && "$VENV/bin/pulpcore-manager" reset-admin-password --password password \
    && "$VENV/bin/python" "$HERE/seed.py"; } >"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }

WORKER_PID=""
stop_app() {
  [ -n "$WORKER_PID" ] && kill -TERM "$WORKER_PID" 2>/dev/null
  [ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null
  wait 2>/dev/null; stop_cluster; exit 0
}
trap stop_app INT TERM
"$VENV/bin/pulpcore-worker" >"$HOME_DIR/worker.log" 2>&1 &
WORKER_PID=$!
"$VENV/bin/pulpcore-api" --bind "127.0.0.1:$PORT" --workers 1 --no-control-socket >"$HOME_DIR/api.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "pulp did not come up on $PORT" -u admin:password "http://127.0.0.1:$PORT/pulp/api/v3/status/"
# The task worker must be online before a write that dispatches a task is made.
for i in $(seq 1 300); do
  curl -sf -u admin:password "http://127.0.0.1:$PORT/pulp/api/v3/workers/?online=true" | grep -q '"count":[1-9]' && break
  kill -0 "$WORKER_PID" 2>/dev/null || fail_and_stop "the pulp task worker exited: $(tail -5 "$HOME_DIR/worker.log")"
  sleep 0.2
done
echo "pulp READY on $PORT"
wait "$APP_PID"
