#!/usr/bin/env bash
# Start Flowise 3.0.13 (Express, TypeORM on SQLite) FRESH in HOME_DIR, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Flowise listens on (127.0.0.1); refused when taken
#   HOME_DIR  where its SQLite database, secret key, logs and blob storage go (default: mktemp -d)
# Env:  FLOWISE_DIR  the npm prefix with flowise@3.0.13 installed (.ci/live-apps.sh; required)
# Prints "flowise READY on <port>" once the seed is in; on SIGINT/SIGTERM stops Flowise.
# The seed (seed.py): the owner account through Flowise's own first-run form
# (`POST /api/v1/account/register`), then, in the database, fixed ids for the owner, its
# organization and workspace and a fixed throwaway API key with every permission (Flowise draws
# them at random), then a few variables, tools and chatflows through the API under that key, whose
# ids are fixed in the database the same way. No telemetry; nothing reaches the network.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
FLOWISE_DIR="${FLOWISE_DIR:?set FLOWISE_DIR to the npm prefix with flowise@3.0.13 installed}"
BASE="http://127.0.0.1:$PORT"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/flowise"
mkdir -p "$HOME_DIR/flowise"
cd "$HOME_DIR"
stop_app_on_signal
HOME="$HOME_DIR" PORT="$PORT" HOST=127.0.0.1 DATABASE_TYPE=sqlite DATABASE_PATH="$HOME_DIR/flowise" \
  SECRETKEY_PATH="$HOME_DIR/flowise" FLOWISE_SECRETKEY_OVERWRITE=capenv-flowise-throwaway-secret-key \
  LOG_PATH="$HOME_DIR/flowise/logs" BLOB_STORAGE_PATH="$HOME_DIR/flowise/storage" LOG_LEVEL=warn \
  DISABLE_FLOWISE_TELEMETRY=true APP_URL="$BASE" \
  JWT_AUTH_TOKEN_SECRET=capenv-flowise-throwaway-jwt-auth JWT_REFRESH_TOKEN_SECRET=capenv-flowise-throwaway-jwt-refresh \
  EXPRESS_SESSION_SECRET=capenv-flowise-throwaway-session TOKEN_HASH_SECRET=capenv-flowise-throwaway-token-hash \
  TZ=UTC node "$FLOWISE_DIR/node_modules/flowise/bin/run" start >"$HOME_DIR/flowise.log" 2>&1 &
APP_PID=$!
wait_until_up 1800 0.2 "flowise did not come up on $PORT" "$BASE/api/v1/ping"
seed_or_stop python3 "$HERE/seed.py" "$BASE" "$HOME_DIR/flowise/database.sqlite"
echo "flowise READY on $PORT"
wait "$APP_PID"
