#!/usr/bin/env bash
# Start Misago 0.39.6 (a Django + DRF forum) FRESH on a private PostgreSQL cluster, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the site's port (Django's runserver, no reloader, 127.0.0.1); refused when taken.
#             PostgreSQL listens on PORT+2 (or a free port) for the time the application runs.
#   HOME_DIR  its working directory (default: mktemp -d): media, logs
# Env:  VENV  virtualenv with misago==0.39.6 installed (.ci/live-apps.sh; required)
# Prints "misago READY on <port>" once seeded; stops the site and the cluster on SIGINT/SIGTERM.
# The site is misagosite/ (settings after Misago's own dev project; Celery tasks eager, no Redis,
# mails dropped, nothing leaves loopback). The migrations take ~5-10 s, the seed (seed.py) ~3 s.
# Auth: the fixed sessions seed.py stores (README "Seed data").
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with misago==0.39.6 installed}"

refuse_taken_port "$PORT"
start_private_postgres misago "$PORT" "$HOME_DIR" misago
rm -rf "$HOME_DIR/media"
mkdir -p "$HOME_DIR/media"
export MISAGO_HOME="$HOME_DIR" MISAGO_PG_PORT="$PG_PORT" PYTHONPATH="$HERE" \
  DJANGO_SETTINGS_MODULE=misagosite.settings PYTHONHASHSEED=0
cd "$HOME_DIR"
{ "$VENV/bin/django-admin" migrate --noinput && "$VENV/bin/python" "$HERE/seed.py"; } >"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }

"$VENV/bin/django-admin" runserver "127.0.0.1:$PORT" --noreload >"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "misago did not come up on $PORT" "http://127.0.0.1:$PORT/api/auth/"
echo "misago READY on $PORT"
wait "$APP_PID"
