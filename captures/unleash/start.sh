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
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
UNLEASH_DIR="${UNLEASH_DIR:?set UNLEASH_DIR to the npm prefix with unleash-server@7.5.1 installed}"
TOKEN="*:*.capenv-unleash-admin-token-not-a-secret"
DATABASE=unleash

refuse_taken_port "$PORT"
pg_bin_dir() {
  local real
  if command -v initdb >/dev/null 2>&1; then
    real="$(dirname "$(readlink -f "$(command -v initdb)")")"
    [ -x "$real/pg_ctl" ] && [ -x "$real/createdb" ] && { echo "$real"; return 0; }
  fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r | head -1
}
PG_BIN="$(pg_bin_dir)"
[ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL server binaries (initdb, pg_ctl) not found" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

PG_PORT=$((PORT + 2))
if (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; then PG_PORT="$(free_port)"; fi
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
CLUSTER="$HOME_DIR/pg"
rm -rf "$CLUSTER"
if [ "$(id -u)" = 0 ]; then
  chmod a+x "$HOME_DIR"  # the postgres user enters it (and nothing more) to reach its cluster
  if ! runuser -u postgres -- test -x "$HOME_DIR"; then
    # A directory above HOME_DIR is closed to the postgres user (pytest's tmp_path is): the cluster
    # goes into a private directory of its own under /tmp instead, removed on stop all the same.
    CLUSTER="$(mktemp -d /tmp/unleash-pg.XXXXXX)"
    chmod 700 "$CLUSTER"
  fi
fi
mkdir -p -m 700 "$CLUSTER"
[ "$(id -u)" = 0 ] && chown postgres: "$CLUSTER"

PG_STARTED=""
stop_cluster() {
  if [ -n "$PG_STARTED" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -m fast -w stop >/dev/null 2>&1 || true
    PG_STARTED=""
  fi
  rm -rf "$CLUSTER"
}
trap stop_cluster EXIT
stop_app_on_signal

as_pg "$PG_BIN/initdb" -D "$CLUSTER/data" -U postgres --auth=trust --encoding=UTF8 --locale=C \
  >"$CLUSTER/initdb.log" 2>&1 || { cat "$CLUSTER/initdb.log" >&2; exit 1; }
PG_STARTED=1
as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $CLUSTER -c fsync=off -c synchronous_commit=off" start >/dev/null \
  || { cat "$CLUSTER/server.log" >&2; exit 1; }
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DATABASE"

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
