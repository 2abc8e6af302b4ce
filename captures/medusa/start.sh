#!/usr/bin/env bash
# Start Medusa 2.21.2 (the commerce server alone, admin dashboard disabled) FRESH on a private, new
# PostgreSQL cluster, then seed it through its Admin API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Medusa's server (`medusa start`, one Node process) listens on (127.0.0.1);
#             refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): a copy of project/ linked to the install's
#             node_modules, and the cluster in HOME_DIR/pg (under /tmp when the postgres user cannot
#             reach HOME_DIR), listening on 127.0.0.1 at PORT+2 (or a free port), trust authentication
# Env:  MEDUSA_DIR  the npm prefix holding node_modules/@medusajs/medusa 2.21.2 (.ci/live-apps.sh
#             installs captures/medusa/install/package.json there; required)
#       MEDUSA_TEMPLATE  optional folder: pgdata.tar, the cluster of an earlier start packed after
#             migrations, the admin user and the seed (made there when missing); a start unpacking it
#             skips all three
#       initdb, pg_ctl, createdb, psql (PostgreSQL server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "medusa READY on <port>" once seeded; on SIGINT/SIGTERM stops the server and the cluster and
# deletes the cluster. As root the PostgreSQL binaries run as the `postgres` user (runuser).
# project/medusa-config.js: no Redis (in-memory event bus, cache, workflows, locking), fixed throwaway
# secrets. The admin user admin@capenv.test (password below) logs in with POST /auth/user/emailpass.
# Migrations, the admin user and the seed make their ids from a fixed sequence (project/fixed-ids.js),
# and the seed sets every clock it made to one fixed instant, so every fresh start holds the same seed.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
MEDUSA_DIR="${MEDUSA_DIR:?set MEDUSA_DIR to the npm prefix with @medusajs/medusa 2.21.2 installed}"
MEDUSA_DIR="$(cd "$MEDUSA_DIR" && pwd)"
ADMIN_EMAIL=admin@capenv.test ADMIN_PASSWORD=capenv-medusa-throwaway

refuse_taken_port "$PORT"
TEMPLATE_TAR="${MEDUSA_TEMPLATE:+$MEDUSA_TEMPLATE/pgdata.tar}"
SEEDED=""
[ -n "$TEMPLATE_TAR" ] && [ -f "$TEMPLATE_TAR" ] && SEEDED=yes
start_private_postgres medusa "$PORT" "$HOME_DIR" medusa "$TEMPLATE_TAR"
export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/medusa" NODE_ENV=development \
  MEDUSA_DISABLE_TELEMETRY=true DO_NOT_TRACK=1 NODE_OPTIONS="--require $HERE/project/fixed-ids.js"
rm -rf "$HOME_DIR/project"
mkdir -p "$HOME_DIR/project"
cp "$HERE/project/medusa-config.js" "$HERE/project/package.json" "$HOME_DIR/project/"
ln -s "$MEDUSA_DIR/node_modules" "$HOME_DIR/project/node_modules"
cd "$HOME_DIR/project"
MEDUSA="$MEDUSA_DIR/node_modules/.bin/medusa"
serve() {  # start the server in the background (APP_PID) and wait until it answers
  "$MEDUSA" start --host 127.0.0.1 --port "$PORT" >>"$HOME_DIR/server.log" 2>&1 &
  APP_PID=$!
  wait_until_up 1200 0.5 "medusa did not come up on $PORT" "http://127.0.0.1:$PORT/health"
}

if [ -z "$SEEDED" ]; then
  export CAPENV_FIXED_IDS_UNTIL="$HOME_DIR/seeded"
  rm -f "$CAPENV_FIXED_IDS_UNTIL"
  CAPENV_FIXED_IDS_SEED=migrate "$MEDUSA" db:migrate >"$HOME_DIR/migrate.log" 2>&1 \
    || { tail -n 40 "$HOME_DIR/migrate.log" >&2; exit 1; }
  CAPENV_FIXED_IDS_SEED=user "$MEDUSA" user -e "$ADMIN_EMAIL" -p "$ADMIN_PASSWORD" >"$HOME_DIR/user.log" 2>&1 \
    || { tail -n 40 "$HOME_DIR/user.log" >&2; exit 1; }
  CAPENV_FIXED_IDS_SEED=seed serve
  seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$ADMIN_EMAIL" "$ADMIN_PASSWORD" \
    "$PG_BIN/psql" "$PG_PORT"
  touch "$CAPENV_FIXED_IDS_UNTIL"
  if [ -n "$TEMPLATE_TAR" ]; then
    kill -TERM "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
    keep_cluster_in_template "$TEMPLATE_TAR"
    serve
  fi
else
  serve
fi
echo "medusa READY on $PORT"
wait "$APP_PID"
