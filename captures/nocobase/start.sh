#!/usr/bin/env bash
# Start NocoBase 2.2.15 (SQLite) FRESH in HOME_DIR, seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port NocoBase listens on (127.0.0.1); refused when taken
#   HOME_DIR  its storage folder (default: mktemp -d): the SQLite database is HOME_DIR/storage/db/nocobase.sqlite
# Env:  NOCOBASE_DIR  the npm prefix with @nocobase/app@2.2.15 and a built sqlite3 (.ci/live-apps.sh; required)
# Prints "nocobase READY on <port>" once it answers; on SIGINT/SIGTERM stops NocoBase.
# The seed is a template database, made once into NOCOBASE_DIR/capenv-template/ and copied on every
# start, so that every start answers the same ids, keys and clocks. The collection and field keys and
# every seeded clock are random or the day's on each install, so the template the capture was recorded
# from ships gzipped beside this script (template.sqlite.gz, 1.5 MB unpacked, throwaway credentials
# only) and is what a start copies; NOCOBASE_NEW_TEMPLATE=1 makes a new one instead (for a new
# recording): `install` (NocoBase's own
# migrations and plugin installs, the root user admin@capenv.test with a throwaway password), then,
# through the API, two collections defined at run time (authors: name, email unique; tags: name)
# with three authors and two tags. The API token is a JWT NocoBase verifies with APP_KEY (a fixed,
# throwaway key): {userId: 1, roleName: root, iat: fixed}, no expiry, signed here, so every start
# accepts the same `Authorization: Bearer` header (NocoBase's API keys are JWTs of the same kind).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
NOCOBASE_DIR="$(cd "${NOCOBASE_DIR:?set NOCOBASE_DIR to the npm prefix with @nocobase/app@2.2.15}" && pwd)"
APP_KEY="capenv-nocobase-throwaway-app-key"
TEMPLATE_DIR="$NOCOBASE_DIR/capenv-template"
MAIN="$NOCOBASE_DIR/node_modules/@nocobase/app/lib/index.js"
BASE="http://127.0.0.1:$PORT/api"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/storage"
mkdir -p "$HOME_DIR/storage/db" "$HOME_DIR/storage/uploads" "$HOME_DIR/storage/plugins"
cd "$HOME_DIR"
export APP_ENV=production APP_KEY APP_PORT="$PORT" APP_HOST=127.0.0.1 TZ=UTC \
  DB_DIALECT=sqlite DB_STORAGE="$HOME_DIR/storage/db/nocobase.sqlite" DB_TIMEZONE=+00:00 \
  STORAGE_PATH="$HOME_DIR/storage" LOCAL_STORAGE_DEST="$HOME_DIR/storage/uploads" \
  PLUGIN_STORAGE_PATH="$HOME_DIR/storage/plugins" \
  INIT_ROOT_EMAIL=admin@capenv.test INIT_ROOT_PASSWORD=Capenv-throwaway-1 INIT_ROOT_NICKNAME=Capenv \
  INIT_ROOT_USERNAME=capenv LOGGER_TRANSPORT=console LOGGER_LEVEL=error CACHE_DEFAULT_STORE=memory \
  API_BASE_PATH=/api/ APP_PUBLIC_PATH=/ PLUGIN_PACKAGE_PREFIX=@nocobase/plugin-,@nocobase/preset- \
  NODE_MODULES_PATH="$NOCOBASE_DIR/node_modules" NODE_PATH="$NOCOBASE_DIR/node_modules"
TOKEN="$(python3 - "$APP_KEY" <<'PY'
import base64, hashlib, hmac, json, sys
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
body = b64(json.dumps({"userId": 1, "roleName": "root", "iat": 1764806400}, separators=(",", ":")).encode())
sig = b64(hmac.new(sys.argv[1].encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
print(f"{head}.{body}.{sig}")
PY
)"
stop_app_on_signal

start_nocobase() {
  node "$MAIN" start &
  APP_PID=$!
  wait_until_up 900 0.2 "nocobase did not come up on $PORT" "$BASE/app:getInfo"
}

api() {  # METHOD PATH [BODY]
  curl -sf -o /dev/null -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$BASE/$2"
}

seed() {
  api POST collections:create '{"name":"authors","title":"Authors","autoGenId":true,"createdAt":true,"updatedAt":true,"sortable":false,"fields":[{"name":"name","type":"string","interface":"input"},{"name":"email","type":"string","unique":true,"interface":"email"}]}' \
    && api POST collections:create '{"name":"tags","title":"Tags","autoGenId":true,"createdAt":true,"updatedAt":true,"sortable":false,"fields":[{"name":"name","type":"string","unique":true,"interface":"input"}]}' \
    && api POST authors:create '{"name":"Ada Lovelace","email":"ada@capenv.test"}' \
    && api POST authors:create '{"name":"Grace Hopper","email":"grace@capenv.test"}' \
    && api POST authors:create '{"name":"Alan Turing","email":"alan@capenv.test"}' \
    && api POST tags:create '{"name":"history"}' \
    && api POST tags:create '{"name":"computing"}'
}

SHIPPED="$HERE/template.sqlite.gz"  # the template the capture was recorded from (see the header)
if [ ! -f "$TEMPLATE_DIR/nocobase.sqlite" ] && [ -f "$SHIPPED" ] && [ -z "${NOCOBASE_NEW_TEMPLATE:-}" ]; then
  mkdir -p "$TEMPLATE_DIR" && gunzip -c "$SHIPPED" >"$TEMPLATE_DIR/nocobase.sqlite.part" \
    && mv "$TEMPLATE_DIR/nocobase.sqlite.part" "$TEMPLATE_DIR/nocobase.sqlite"
fi
if [ ! -f "$TEMPLATE_DIR/nocobase.sqlite" ]; then
  # No template yet (NOCOBASE_NEW_TEMPLATE set, or none shipped): NocoBase's install, then the seed.
  node "$MAIN" install -f || fail_and_stop "nocobase install failed"
  start_nocobase
  seed_or_stop seed
  kill -TERM "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
  keep_in_template "$HOME_DIR/storage/db/nocobase.sqlite" "$TEMPLATE_DIR"
fi
cp "$TEMPLATE_DIR/nocobase.sqlite" "$HOME_DIR/storage/db/nocobase.sqlite"
start_nocobase
curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/authors:list" | grep -q '"count":3' || fail_and_stop "the seed is not there"
echo "nocobase READY on $PORT"
wait "$APP_PID"
