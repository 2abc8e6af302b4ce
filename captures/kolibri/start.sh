#!/usr/bin/env bash
# Start Kolibri 0.19.5 (Django on SQLite, served by its own cheroot server) FRESH in a new home,
# then seed it through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Kolibri listens on (127.0.0.1); refused when taken
#   HOME_DIR  where KOLIBRI_HOME is made (default: mktemp -d); an old one there is replaced
# Env:  VENV  virtualenv with kolibri==0.19.5 installed (required)
# Prints "kolibri READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# `kolibri manage provisiondevice` migrates the databases and makes facility Riverside School
# (formal preset) with superuser admin (fixed throwaway password); seed.py then makes the rest
# through the API and gives the sessions of admin and lena fixed throwaway keys. Nothing reaches
# the network: the telemetry ping and Zeroconf discovery are off, the server listens on loopback
# (its zip-content server too, on a port the system picks).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with kolibri==0.19.5 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/kolibri"
export KOLIBRI_HOME="$HOME_DIR/kolibri" KOLIBRI_DISABLE_PING=true KOLIBRI_ZEROCONF_ENABLED=false \
  KOLIBRI_LISTEN_ADDRESS=127.0.0.1 KOLIBRI_ZIP_CONTENT_PORT=0 KOLIBRI_HTTP_PORT="$PORT" TZ=UTC
"$VENV/bin/kolibri" manage provisiondevice --facility "Riverside School" --superusername admin \
  --superuserpassword capenv-admin-pass --preset formal --language_id en --noinput \
  >"$HOME_DIR/provision.log" 2>&1 || { cat "$HOME_DIR/provision.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/kolibri" start --foreground --skip-update --port "$PORT" >"$HOME_DIR/kolibri.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "kolibri did not come up on $PORT" "http://127.0.0.1:$PORT/api/public/info/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$KOLIBRI_HOME"
echo "kolibri READY on $PORT"
wait "$APP_PID"
