#!/usr/bin/env bash
# Start Weblate 5.14.3 (Django + DRF) FRESH on a private PostgreSQL cluster, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the site's port (Django's runserver, no reloader, 127.0.0.1); refused when taken.
#             PostgreSQL listens on PORT+2 (or a free port) for the time the application runs.
#   HOME_DIR  its working directory and Weblate's DATA_DIR (default: mktemp -d): the components'
#             local git repositories, media, logs
# Env:  VENV  virtualenv with weblate==5.14.3 installed (.ci/live-apps.sh; required)
# Prints "weblate READY on <port>" once seeded; stops the site and the cluster on SIGINT/SIGTERM.
# The site is weblatesite/ (Weblate's settings_example with an in-process cache, Celery tasks eager,
# no Redis, mails dropped, nothing leaves loopback). The migrations take ~30-60 s, the seed (seed.py) ~5 s.
# Auth: the fixed API tokens seed.py stores (README "Seed data").
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with weblate==5.14.3 installed}"

refuse_taken_port "$PORT"
start_private_postgres weblate "$PORT" "$HOME_DIR" weblate
rm -rf "$HOME_DIR/data"
mkdir -p "$HOME_DIR/data" "$HOME_DIR/home"
# git (Weblate commits every change to its local repositories) reads no user's configuration.
export WEBLATE_HOME="$HOME_DIR/data" WEBLATE_PG_PORT="$PG_PORT" PYTHONPATH="$HERE" \
  DJANGO_SETTINGS_MODULE=weblatesite.settings PYTHONHASHSEED=0 HOME="$HOME_DIR/home" \
  GIT_CONFIG_NOSYSTEM=1 TZ=UTC GIT_AUTHOR_DATE="2026-01-05T09:00:00Z" GIT_COMMITTER_DATE="2026-01-05T09:00:00Z"
cd "$HOME_DIR"
{ "$VENV/bin/django-admin" migrate --noinput && "$VENV/bin/python" "$HERE/seed.py" "$HERE/seed"; } \
  >"$HOME_DIR/setup.log" 2>&1 || { cat "$HOME_DIR/setup.log" >&2; exit 1; }

"$VENV/bin/django-admin" runserver "127.0.0.1:$PORT" --noreload >"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "weblate did not come up on $PORT" "http://127.0.0.1:$PORT/api/"
echo "weblate READY on $PORT"
wait "$APP_PID"
