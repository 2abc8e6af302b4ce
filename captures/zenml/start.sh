#!/usr/bin/env bash
# Start a ZenML 0.98.0 server FRESH (new SQLite store) on 127.0.0.1:PORT, seed it with seed.py
# DIRECTLY on the app port (the seed is never recorded), print "zenml READY on <port>", and run in
# the foreground until SIGINT/SIGTERM.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the app port (required; a port already listening is refused)
#   HOME_DIR  where the store lives (default: mktemp -d); start.sh empties it at every start.
# Env:   VENV  virtualenv with zenml[server]==0.98.0 installed (required)
# The server runs as `zenml login --local --blocking` runs it (uvicorn on zen_server_api:app), with
# the OAuth2 password/bearer scheme of a deployed server instead of the local no-auth one, and
# fixed throwaway JWT settings so that token.txt is accepted by every start (serve.py).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
APP_PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with zenml[server]==0.98.0 installed}"
[ -x "$VENV/bin/zenml" ] || { echo "no zenml in $VENV/bin" >&2; exit 1; }

refuse_taken_port "$APP_PORT"
mkdir -p "$HOME_DIR"; HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "${HOME_DIR:?}"/*
mkdir -p "$HOME_DIR/config" "$HOME_DIR/stores"
cd "$HOME_DIR"

export ZENML_SERVER=true ZENML_ANALYTICS_OPT_IN=false ZENML_LOGGING_VERBOSITY=WARN
export ZENML_CONFIG_PATH="$HOME_DIR/config" ZENML_LOCAL_STORES_PATH="$HOME_DIR/stores"
export ZENML_STORE_URL="sqlite:///$HOME_DIR/zenml.db"
export ZENML_SERVER_AUTH_SCHEME=OAUTH2_PASSWORD_BEARER ZENML_SERVER_AUTO_ACTIVATE=true
export ZENML_DEFAULT_USER_PASSWORD=capenv-zenml-throwaway-password
export ZENML_SERVER_JWT_SECRET_KEY=capenv-zenml-throwaway-jwt-secret-key-not-a-secret
export ZENML_SERVER_JWT_TOKEN_ISSUER=capenv-zenml ZENML_SERVER_JWT_TOKEN_AUDIENCE=capenv-zenml
export CAPENV_SEEDED_FLAG="$HOME_DIR/seeded"

stop_app_on_signal
"$VENV/bin/python" "$HERE/serve.py" "$APP_PORT" > "$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
# the first start creates the tables and the defaults: 20-40 s on this 2-core machine
wait_until_up 600 0.3 "zenml server did not come up on $APP_PORT (log: $HOME_DIR/server.log)" \
  "http://127.0.0.1:$APP_PORT/health"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$APP_PORT" "$(cat "$HERE/token.txt")"
touch "$CAPENV_SEEDED_FLAG"
echo "zenml READY on $APP_PORT (pid $APP_PID, store $HOME_DIR)"
wait "$APP_PID"
