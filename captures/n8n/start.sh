#!/usr/bin/env bash
# Start n8n 1.123.81 (community edition, SQLite) FRESH in HOME_DIR, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port n8n listens on (127.0.0.1); refused when taken
#   HOME_DIR  its user folder (N8N_USER_FOLDER; default: mktemp -d): the SQLite database is made in
#             HOME_DIR/.n8n/database.sqlite by n8n's migrations at its first start
# Env:  N8N_DIR  the npm prefix with n8n@1.123.81 installed (.ci/live-apps.sh; required)
# Prints "n8n READY on <port>" once the seed is in; on SIGINT/SIGTERM stops n8n.
# The seed: the owner account (`POST /rest/owner/setup`, n8n's own first-run form, with a throwaway
# password), then an API key for it with every scope the owner may give one (`POST /rest/api-keys`,
# logged in by the setup's cookie); the key n8n generates (a JWT naming the random owner id and the
# time) is then replaced in the database by a fixed, throwaway one in n8n's legacy key form
# (`n8n_api_...`, which n8n looks up without verifying a signature), so that every start answers the
# same `X-N8N-API-KEY` header. The owner's id and its personal project's id (random at the setup,
# shown by the users and by every workflow's `shared`) are replaced by fixed ones the same way, so
# that a later start answers the capture's ids. Nothing else is created: no workflow, tag, credential or execution.
# No telemetry, version check, template or personalization call leaves the machine. Expressions run
# in n8n's `legacy` engine: the default `vm` engine needs isolated-vm's native build, which the
# install skips (no workflow of the capture evaluates an expression).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
N8N_DIR="${N8N_DIR:?set N8N_DIR to the npm prefix with n8n@1.123.81 installed}"
API_KEY="n8n_api_capenv-n8n-throwaway-api-key-0001"
OWNER='{"email":"owner@capenv.test","firstName":"Capenv","lastName":"Owner","password":"Capenv-throwaway-1"}'
BASE="http://127.0.0.1:$PORT"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/.n8n"
cd "$HOME_DIR"
stop_app_on_signal
N8N_USER_FOLDER="$HOME_DIR" N8N_PORT="$PORT" N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 \
  N8N_PROTOCOL=http N8N_EDITOR_BASE_URL="$BASE" WEBHOOK_URL="$BASE/" \
  DB_TYPE=sqlite N8N_ENCRYPTION_KEY=capenv-n8n-throwaway-encryption-key \
  N8N_USER_MANAGEMENT_JWT_SECRET=capenv-n8n-throwaway-jwt-secret \
  N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false \
  N8N_PERSONALIZATION_ENABLED=false N8N_TEMPLATES_ENABLED=false N8N_HIRING_BANNER_ENABLED=false \
  N8N_SECURE_COOKIE=false N8N_RUNNERS_ENABLED=false N8N_EXPRESSION_ENGINE=legacy \
  N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false N8N_PUBLIC_API_SWAGGERUI_DISABLED=true \
  N8N_LOG_LEVEL=warn TZ=UTC GENERIC_TIMEZONE=UTC \
  node "$N8N_DIR/node_modules/n8n/bin/n8n" start &
APP_PID=$!
# While migrating, n8n answers every path with a "starting up" page; /healthz/readiness answers
# once the database is ready, and the REST routes are mounted a moment later: wait for the
# settings to be JSON (the owner setup form reads them).
wait_until_up 1200 0.2 "n8n did not come up on $PORT" "$BASE/healthz/readiness"
rest_ready() { curl -sf "$BASE/rest/settings" | python3 -c 'import json, sys; json.load(sys.stdin)' 2>/dev/null; }
for i in $(seq 1 600); do rest_ready && break; kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.2; done
rest_ready || fail_and_stop "n8n's REST routes did not come up on $PORT"

seed() {
  local jar="$HOME_DIR/seed-cookies" scopes
  curl -sf -o /dev/null -c "$jar" -H 'Content-Type: application/json' -d "$OWNER" "$BASE/rest/owner/setup" \
    || return 1
  scopes="$(curl -sf -b "$jar" "$BASE/rest/api-keys/scopes" \
    | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["data"]))')" || return 1
  curl -sf -o /dev/null -b "$jar" -H 'Content-Type: application/json' \
    -d "{\"label\":\"capenv\",\"expiresAt\":null,\"scopes\":$scopes}" "$BASE/rest/api-keys" || return 1
  rm -f "$jar"
  python3 - "$HOME_DIR/.n8n/database.sqlite" "$API_KEY" <<'PY'
import sqlite3, sys
OWNER_ID, PROJECT_ID = "0c5e0a11-0000-4000-8000-00000000c0de", "CapenvPersonal01"
db = sqlite3.connect(sys.argv[1], timeout=30)
with db:  # foreign keys are off in this connection: every reference is rewritten by hand
    changed = db.execute("UPDATE user_api_keys SET apiKey = ? WHERE label = 'capenv'", (sys.argv[2],)).rowcount
    (owner,), = db.execute("SELECT id FROM user").fetchall()
    (project,), = db.execute("SELECT id FROM project WHERE type = 'personal'").fetchall()
    db.execute("UPDATE user SET id = ? WHERE id = ?", (OWNER_ID, owner))
    db.execute("UPDATE user_api_keys SET userId = ? WHERE userId = ?", (OWNER_ID, owner))
    db.execute("UPDATE auth_identity SET userId = ? WHERE userId = ?", (OWNER_ID, owner))
    db.execute("UPDATE project SET id = ? WHERE id = ?", (PROJECT_ID, project))
    db.execute("UPDATE project_relation SET userId = ?, projectId = ? WHERE userId = ? AND projectId = ?",
               (OWNER_ID, PROJECT_ID, owner, project))
db.close()
sys.exit(0 if changed == 1 else 1)
PY
  [ $? = 0 ] || return 1
  curl -sf -H "X-N8N-API-KEY: $API_KEY" "$BASE/api/v1/workflows" | grep -q '"data":\[\]' 
}
seed_or_stop seed
echo "n8n READY on $PORT"
wait "$APP_PID"
