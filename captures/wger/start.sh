#!/usr/bin/env bash
# Start wger 2.1 (Django 3.2 + DRF on SQLite) FRESH in a new home, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the site's port (Django's runserver, no reloader, 127.0.0.1); refused when taken.
#   HOME_DIR  its working directory (default: mktemp -d): the SQLite database, media, logs
# Env:  VENV  virtualenv with wger==2.1 installed (.ci/live-apps.sh; required)
# Prints "wger READY on <port>" once seeded; stops the site on SIGINT/SIGTERM.
# The site is wgersite/ (wger's settings.tpl on a private SQLite file; nothing leaves loopback). The
# migrations take ~25 s, the fixtures (wger's own catalogues: languages, licences, units, exercise
# categories, equipment, muscles; its test ingredients and weight units) ~5 s, the seed (seed.py) ~3 s.
# wger's exercise fixtures are not loaded: the 2.1 package's exercise-base-data.json lacks a field its
# model requires, and the exercises come from wger.de by a sync that needs the network.
# Auth: the fixed API tokens seed.py stores (README "Seed data").
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with wger==2.1 installed}"

refuse_taken_port "$PORT"
rm -rf "$HOME_DIR/wger"
mkdir -p "$HOME_DIR/wger/media"
export WGER_HOME="$HOME_DIR/wger" PYTHONPATH="$HERE" DJANGO_SETTINGS_MODULE=wgersite.settings \
  PYTHONHASHSEED=0 TZ=UTC
cd "$HOME_DIR"
{ "$VENV/bin/django-admin" migrate --noinput \
  && "$VENV/bin/django-admin" loaddata gym.json languages.json groups.json licenses.json days_of_week.json \
       setting_repetition_units.json setting_weight_units.json language_config.json gym_config.json \
       equipment.json muscles.json categories.json gym-config.json \
  && "$VENV/bin/django-admin" loaddata test-weight-units.json test-ingredients.json \
  && "$VENV/bin/python" "$HERE/seed.py"; } >"$HOME_DIR/setup.log" 2>&1 || { cat "$HOME_DIR/setup.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/django-admin" runserver "127.0.0.1:$PORT" --noreload >"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "wger did not come up on $PORT" "http://127.0.0.1:$PORT/api/v2/version/"
echo "wger READY on $PORT"
wait "$APP_PID"
