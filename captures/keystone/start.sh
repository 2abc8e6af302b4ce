#!/usr/bin/env bash
# Start OpenStack Keystone 30.0.0 FRESH on a new home directory (SQLite), then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the v3 API (gunicorn, one sync worker, wsgi.py) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where keystone.conf, the key repositories and keystone.db are made (default: mktemp -d);
#             an old one is replaced
# Env:  VENV  virtualenv with keystone==30.0.0 and gunicorn installed (required)
#       KEYSTONE_TEMPLATE  optional folder: the seeded database (keystone.db) of an earlier start, copied
#             instead of migrating, bootstrapping and seeding again (kept there by the first start)
# Prints "keystone READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# Fixed, throwaway: the bootstrap admin's password, the Fernet token, receipt and credential keys
# (derived from their names), so the admin token in token.txt (system scope, expires 2046) holds on
# every fresh start; seed.py gives every seeded resource a fixed id. Links name the configured
# public_endpoint, http://localhost:5000/, whatever PORT is.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with keystone==30.0.0 and gunicorn installed}"
ADMIN_PASS=capenv-keystone-throwaway

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/fernet-keys" "$HOME_DIR/credential-keys" "$HOME_DIR/receipt-keys" "$HOME_DIR/keystone.db"
CFG="$HOME_DIR/keystone.conf"
cat >"$CFG" <<CFG
[DEFAULT]
public_endpoint = http://localhost:5000/
use_stderr = true
[database]
connection = sqlite:///$HOME_DIR/keystone.db
[token]
provider = fernet
expiration = 631152000
[fernet_tokens]
key_repository = $HOME_DIR/fernet-keys
[fernet_receipts]
key_repository = $HOME_DIR/receipt-keys
[credential]
key_repository = $HOME_DIR/credential-keys
[identity]
password_hash_rounds = 4
[cache]
enabled = false
CFG
for repo in fernet credential receipt; do
  mkdir -p "$HOME_DIR/$repo-keys"; chmod 700 "$HOME_DIR/$repo-keys"
  for n in 0 1; do
    python3 -c 'import base64, hashlib, sys; print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode(), end="")' \
      "capenv-keystone-throwaway-$repo-$n" >"$HOME_DIR/$repo-keys/$n"
    chmod 600 "$HOME_DIR/$repo-keys/$n"
  done
done
export OS_KEYSTONE_CONFIG_FILES="$CFG"
SEEDED=""
if [ -n "${KEYSTONE_TEMPLATE:-}" ] && [ -f "$KEYSTONE_TEMPLATE/keystone.db" ]; then
  cp "$KEYSTONE_TEMPLATE/keystone.db" "$HOME_DIR/keystone.db"
  SEEDED=yes
else
  "$VENV/bin/keystone-manage" --config-file "$CFG" db_sync >"$HOME_DIR/db_sync.log" 2>&1
  "$VENV/bin/keystone-manage" --config-file "$CFG" bootstrap --bootstrap-password "$ADMIN_PASS" \
    --bootstrap-region-id RegionOne --bootstrap-public-url http://localhost:5000/v3 >"$HOME_DIR/bootstrap.log" 2>&1
fi

stop_app_on_signal
"$VENV/bin/gunicorn" --chdir "$HERE" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" wsgi:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "keystone did not come up on $PORT" "http://127.0.0.1:$PORT/v3"
if [ -z "$SEEDED" ]; then
  seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$ADMIN_PASS" "$HOME_DIR/keystone.db"
  [ -z "${KEYSTONE_TEMPLATE:-}" ] || keep_in_template "$HOME_DIR/keystone.db" "$KEYSTONE_TEMPLATE"
fi
echo "keystone READY on $PORT"
wait "$APP_PID"
