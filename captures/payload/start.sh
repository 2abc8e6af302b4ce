#!/usr/bin/env bash
# Start Payload CMS 2.32.3 (Express, @payloadcms/db-postgres 0.8.9) FRESH on a private, new PostgreSQL
# cluster, then seed it through its REST API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Payload's Express server (project/server.js, one Node process) listens on
#             (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d) and the cluster in HOME_DIR/pg (under /tmp
#             when the postgres user cannot reach HOME_DIR), listening on 127.0.0.1 at PORT+2 (or a
#             free port when that one is taken), trust authentication, loopback only
# Env:  PAYLOAD_DIR  the npm prefix holding node_modules/payload 2.32.3 (.ci/live-apps.sh installs
#             captures/payload/install/package.json there; required)
#       initdb, pg_ctl, createdb, psql (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "payload READY on <port>" once seeded; on SIGINT/SIGTERM stops the server and the cluster and
# deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run as the
# `postgres` user (runuser), which then must be able to enter HOME_DIR.
# project/payload.config.js: no admin panel, no GraphQL, no telemetry, no rate limit; the schema is
# pushed by the adapter on start (development mode). server.js makes the admin user
# (admin@capenv.test, a fixed throwaway password and the API key below: `Authorization: users
# API-Key <key>`). The seed (seed.py, directly on the app port, never through the recording proxy)
# then sets every createdAt/updatedAt of what it made to one fixed instant in PostgreSQL.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
PAYLOAD_DIR="${PAYLOAD_DIR:?set PAYLOAD_DIR to the npm prefix with payload 2.32.3 installed}"
PAYLOAD_DIR="$(cd "$PAYLOAD_DIR" && pwd)"
API_KEY=0b5c3a1e-6f2d-4c8a-9e71-capenv000001

refuse_taken_port "$PORT"
start_private_postgres payload "$PORT" "$HOME_DIR" payload
export PAYLOAD_CONFIG_PATH="$HERE/project/payload.config.js" NODE_PATH="$PAYLOAD_DIR/node_modules" \
  PAYLOAD_SECRET=capenv-payload-throwaway-secret CAPENV_API_KEY="$API_KEY" \
  DATABASE_URI="postgres://postgres@127.0.0.1:$PG_PORT/payload" PAYLOAD_TELEMETRY_DISABLED=true
cd "$HOME_DIR"
node "$HERE/project/server.js" "$PORT" >>"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.5 "payload did not come up on $PORT" -H "Authorization: users API-Key $API_KEY" \
  "http://127.0.0.1:$PORT/api/users/me"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "users API-Key $API_KEY" "$PG_BIN/psql" "$PG_PORT"
echo "payload READY on $PORT"
wait "$APP_PID"
