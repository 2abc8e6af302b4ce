#!/usr/bin/env bash
# Start NocoDB 0.301.3 FRESH on a new SQLite store, make its base and tables and seed them.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port NocoDB listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  its working directory, where noco.db (meta and data, SQLite) is made (default:
#             mktemp -d); an old noco.db is removed
# Env:  NOCODB_DIR  the npm prefix with nocodb@0.301.3 installed (.ci/live-apps.sh; required)
# Prints "nocodb READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# NC_ADMIN_EMAIL / NC_ADMIN_PASSWORD make a throwaway super admin at start. The seed (seed.py)
# runs directly on the app port, never through the recording proxy: it signs in as that admin,
# creates the base and the tables Books and Members with fixed table ids, the seed rows, and the
# driver's API token, whose value it sets to the fixed throwaway TOKEN below.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
NOCODB_DIR="${NOCODB_DIR:?set NOCODB_DIR to the npm prefix with nocodb@0.301.3 installed}"
EMAIL="admin@example.com"
PASSWORD="Capenv-nocodb-throwaway-1"
TOKEN="nocodb-capture-token-not-a-secret-000001"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -f "$HOME_DIR"/noco.db*
cd "$HOME_DIR"

stop_app_on_signal
# No telemetry, no error reports, no cache beyond the process; the JWT secret is fixed so that
# nothing about a start depends on a random secret (the driver uses the API token, not a JWT).
NOCODB_DIR="$NOCODB_DIR" NC_DISABLE_TELE=true NC_DISABLE_ERR_REPORTS=true \
  NC_ADMIN_EMAIL="$EMAIL" NC_ADMIN_PASSWORD="$PASSWORD" NC_AUTH_JWT_SECRET="capenv-nocodb-throwaway-jwt" \
  node "$HERE/serve.js" "$PORT" &
APP_PID=$!
wait_until_up 1800 0.1 "nocodb did not come up on $PORT" "http://127.0.0.1:$PORT/api/v1/health"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$EMAIL" "$PASSWORD" "$HOME_DIR/noco.db" "$TOKEN"
echo "nocodb READY on $PORT"
wait "$APP_PID"
