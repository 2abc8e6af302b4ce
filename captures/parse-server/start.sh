#!/usr/bin/env bash
# Start Parse Server 9.10.0 FRESH on a private, new PostgreSQL cluster, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Parse Server listens on (127.0.0.1, mount path /parse); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): the cluster is made in HOME_DIR/pg (an
#             old one is removed; under /tmp when the postgres user cannot reach HOME_DIR),
#             listening on 127.0.0.1 at PORT+2 (or a free port when that one is taken), with
#             trust authentication, loopback only
# Env:  PARSE_SERVER_DIR  the npm prefix with parse-server@9.10.0 installed (.ci/live-apps.sh; required)
#       initdb, pg_ctl, createdb (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "parse-server READY on <port>" once seeded; on SIGINT/SIGTERM stops Parse Server and the
# cluster and deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run
# as the `postgres` user (runuser), which then must be able to enter HOME_DIR.
# The seed (seed.py) runs directly on the app port, never through the recording proxy, with the
# throwaway master key below: classes Author, Book, Review and their seed objects, whose random
# objectIds it then fixes to known values in PostgreSQL (Parse Server keeps no object cache).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
PARSE_SERVER_DIR="${PARSE_SERVER_DIR:?set PARSE_SERVER_DIR to the npm prefix with parse-server@9.10.0 installed}"
APP_ID="capenv-parse-app"
MASTER_KEY="capenv-parse-master-key-not-a-secret"
DATABASE=parse

refuse_taken_port "$PORT"
start_private_postgres parse-server "$PORT" "$HOME_DIR" "$DATABASE"

cd "$HOME_DIR"
# Logs (errors only) go to stdout and HOME_DIR/logs; no telemetry exists. The master key is accepted from
# loopback only (masterKeyIps' default), which is where the driver and capenv call from.
node "$PARSE_SERVER_DIR/node_modules/parse-server/bin/parse-server" \
  --appId "$APP_ID" --masterKey "$MASTER_KEY" \
  --databaseURI "postgres://postgres@127.0.0.1:$PG_PORT/$DATABASE" \
  --host 127.0.0.1 --port "$PORT" --mountPath /parse --serverURL "http://127.0.0.1:$PORT/parse" \
  --logLevel error &
APP_PID=$!
wait_until_up 600 0.1 "parse-server did not come up on $PORT" "http://127.0.0.1:$PORT/parse/health"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT/parse" "$APP_ID" "$MASTER_KEY" \
  "$PG_BIN/psql" "$PG_PORT" "$DATABASE"
echo "parse-server READY on $PORT"
wait "$APP_PID"
