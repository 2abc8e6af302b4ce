#!/usr/bin/env bash
# Start pygeoapi 0.21.0 (Flask, TinyDB and GeoJSON file providers) FRESH with new TinyDB files, then seed.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port pygeoapi's Flask server listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the configuration, OpenAPI document and TinyDB files are made (default: mktemp -d)
# Env:  VENV        virtualenv with pygeoapi==0.21.0 installed (required)
#       PUBLIC_URL  the base URL pygeoapi writes into its links and Location headers
#                   (default http://127.0.0.1:PORT)
# Prints "pygeoapi READY on <port>" once up and seeded; stops on SIGINT/SIGTERM.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with pygeoapi==0.21.0 installed}"
PUBLIC_URL="${PUBLIC_URL:-http://127.0.0.1:$PORT}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
for db in parks trails; do echo '{"_default": {}}' >"$HOME_DIR/$db.json"; done
sed -e "s|@PORT@|$PORT|; s|@URL@|$PUBLIC_URL|; s|@HOME@|$HOME_DIR|; s|@HERE@|$HERE|" \
  "$HERE/config.yml.in" >"$HOME_DIR/config.yml"
export PYGEOAPI_CONFIG="$HOME_DIR/config.yml" PYGEOAPI_OPENAPI="$HOME_DIR/openapi.yml"
"$VENV/bin/pygeoapi" openapi generate "$PYGEOAPI_CONFIG" --output-file "$PYGEOAPI_OPENAPI" \
  >"$HOME_DIR/openapi.log" 2>&1 || { cat "$HOME_DIR/openapi.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/pygeoapi" serve --flask >"$HOME_DIR/pygeoapi.log" 2>&1 &
APP_PID=$!
wait_until_up 120 0.2 "pygeoapi did not come up on $PORT" "http://127.0.0.1:$PORT/collections"
"$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" || { echo "seeding failed" >&2; exit 1; }
echo "pygeoapi READY on $PORT"
wait "$APP_PID"
