#!/usr/bin/env bash
# Start Unleash 7.5.1 (open source) FRESH on a private, new PostgreSQL cluster, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Unleash listens on (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): the cluster is made in HOME_DIR/pg (an
#             old one is removed; under /tmp when the postgres user cannot reach HOME_DIR),
#             listening on 127.0.0.1 at PORT+2 (or a free port when that one is taken), with
#             trust authentication, loopback only
# Env:  UNLEASH_DIR  the npm prefix with unleash-server@7.5.1 installed (.ci/live-apps.sh; required)
#       initdb, pg_ctl, createdb (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "unleash READY on <port>" once up; on SIGINT/SIGTERM stops Unleash and the cluster and
# deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run as the
# `postgres` user (runuser), which then must be able to enter HOME_DIR.
# Unleash makes its schema (migrations) on the empty database at its first start and an admin API
# token from INIT_ADMIN_API_TOKENS (below, a throwaway one, sent as `Authorization: <token>`). No
# version check and no telemetry leave the machine. The seed is Unleash's own: the project
# `default`, the environments `development` and `production`, the strategies, tag type `simple`
# and context fields (appName, currentTime, environment, userId, sessionId, remoteAddress).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
UNLEASH_DIR="${UNLEASH_DIR:?set UNLEASH_DIR to the npm prefix with unleash-server@7.5.1 installed}"
TOKEN="*:*.capenv-unleash-admin-token-not-a-secret"
DATABASE=unleash

refuse_taken_port "$PORT"
start_private_postgres unleash "$PORT" "$HOME_DIR" "$DATABASE"

cd "$HOME_DIR"
# Logs (warnings and errors) go to stdout. TZ=UTC as Unleash's own `npm start` sets it.
TZ=UTC HTTP_HOST=127.0.0.1 HTTP_PORT="$PORT" UNLEASH_URL="http://127.0.0.1:$PORT" \
  DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/$DATABASE" DATABASE_SSL=false \
  INIT_ADMIN_API_TOKENS="$TOKEN" CHECK_VERSION=false SEND_TELEMETRY=false LOG_LEVEL=warn \
  UNLEASH_SECRET="capenv-unleash-secret-not-a-secret" \
  node "$UNLEASH_DIR/node_modules/unleash-server/dist/server.js" &
APP_PID=$!
wait_until_up 1200 0.1 "unleash did not come up on $PORT" -H "Authorization: $TOKEN" \
  "http://127.0.0.1:$PORT/api/admin/projects"
echo "unleash READY on $PORT"
wait "$APP_PID"
