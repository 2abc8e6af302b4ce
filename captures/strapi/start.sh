#!/usr/bin/env bash
# Start Strapi 5.54.0 FRESH (new SQLite file) from the project in ./project. Its bootstrap
# (project/src/index.js) opens the REST API to the public role and writes the seed
# (project/src/seed.js) before the port opens, so the seed is never recorded.
# Usage: ./start.sh [APP_PORT] [HOME_DIR]   (default port 42030; HOME_DIR default: mktemp -d).
#        Runs in the foreground until SIGINT/SIGTERM; prints "STRAPI READY on <port>" once seeded.
# Env:   STRAPI_DIR  npm prefix with the pinned install (its node_modules: @strapi/strapi 5.54.0,
#                    @strapi/plugin-users-permissions 5.54.0, better-sqlite3 12.9.0; see README)
# HOME_DIR receives a copy of ./project (config, content-type schemas, bootstrap) with
# node_modules linked to $STRAPI_DIR/node_modules and the database at HOME_DIR/app/.tmp/data.db;
# it must not already hold an app/ (a start is always fresh). Nothing is installed or built here.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
APP_PORT="${1:-42030}"
HOME_DIR="${2:-$(mktemp -d)}"
STRAPI_DIR="${STRAPI_DIR:?set STRAPI_DIR to the npm prefix holding the Strapi 5.54.0 install}"
STRAPI_BIN="$STRAPI_DIR/node_modules/.bin/strapi"
[ -x "$STRAPI_BIN" ] || { echo "no $STRAPI_BIN: install Strapi into STRAPI_DIR first" >&2; exit 2; }

refuse_taken_port "$APP_PORT"
APP="$HOME_DIR/app"
[ -e "$APP" ] && { echo "$APP already exists: give an empty HOME_DIR (starts are fresh)" >&2; exit 2; }
mkdir -p "$HOME_DIR"
cp -a "$HERE/project" "$APP"
ln -s "$STRAPI_DIR/node_modules" "$APP/node_modules"
mkdir -p "$APP/.tmp"

# Strapi reads these; everything secret is a fixed throwaway value (nothing here protects data).
unset HOST PORT DATABASE_CLIENT DATABASE_URL
export HOST=127.0.0.1 PORT="$APP_PORT" NODE_ENV=production
export DATABASE_FILENAME="$APP/.tmp/data.db"
export APP_KEYS="capenvThrowawayKeyA==,capenvThrowawayKeyB=="
export ADMIN_JWT_SECRET="capenv-throwaway-admin-jwt-secret" JWT_SECRET="capenv-throwaway-jwt-secret"
export API_TOKEN_SALT="capenv-throwaway-api-token-salt" TRANSFER_TOKEN_SALT="capenv-throwaway-transfer-salt"
export ENCRYPTION_KEY="capenv-throwaway-encryption-key"
export STRAPI_TELEMETRY_DISABLED=true              # no telemetry
export STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true
export BROWSER=none

SPID=""
trap '[ -n "$SPID" ] && kill -TERM $SPID 2>/dev/null; wait $SPID 2>/dev/null; exit 0' INT TERM
cd "$APP"
"$STRAPI_BIN" start &
SPID=$!
up=0
for i in $(seq 1 600); do
  if curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/_health" 2>/dev/null | grep -q 204; then
    up=1; break
  fi
  kill -0 $SPID 2>/dev/null || break
  sleep 0.3
done
[ "$up" = 1 ] || { echo "strapi did not come up on $APP_PORT" >&2; kill -TERM $SPID 2>/dev/null; exit 1; }
curl -sf "http://127.0.0.1:$APP_PORT/api/global" | grep -q '"capenv blog"' \
  || { echo "strapi is up but the seed is missing" >&2; kill -TERM $SPID; exit 1; }
echo "STRAPI READY on $APP_PORT (pid $SPID, data $APP/.tmp/data.db)"
wait $SPID
