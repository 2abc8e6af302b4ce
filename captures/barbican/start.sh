#!/usr/bin/env bash
# Start OpenStack Barbican 23.0.0 FRESH on a new home directory (SQLite, simple_crypto with a fixed KEK),
# then seed it (seed.py: through the API, then fixed ids and clocks in the database).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the API (gunicorn, one sync worker, the paste pipeline of barbican-api-paste.ini)
#             listens on (127.0.0.1); refused when taken
#   HOME_DIR  where .barbican/barbican.conf, the paste file and barbican.sqlite are made (default:
#             mktemp -d); an old database is replaced
# Env:  VENV  virtualenv with barbican==23.0.0 and gunicorn installed (required)
# Prints "barbican READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# No Keystone: /v1 runs the shipped pipeline with the `context` filter and no `authtoken` in front, so the
# request's own headers are the identity: `X-Identity-Status: Confirmed`, `X-Project-Id`, `X-User-Id`,
# `X-Roles`. (The shipped unauthenticated pipeline fails every request: its filter reads a request_id
# attribute nothing sets.) host_href is fixed (http://localhost:9311) so every ref is the same whatever
# port or proxy the client talks to.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with barbican==23.0.0 and gunicorn installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR/.barbican"
rm -f "$HOME_DIR/barbican.sqlite"
# oslo.config finds ~/.barbican/barbican.conf: HOME is the home directory for barbican's processes.
cat >"$HOME_DIR/.barbican/barbican.conf" <<CFG
[DEFAULT]
host_href = http://localhost:9311
use_stderr = true
[database]
connection = sqlite:///$HOME_DIR/barbican.sqlite
[secretstore]
enabled_secretstore_plugins = store_crypto
[crypto]
enabled_crypto_plugins = simple_crypto
[simple_crypto_plugin]
kek = dGhpcnR5X3R3b19ieXRlX2tleWJsYWhibGFoYmxhaGg=
CFG
sed -e 's#^/v1: barbican-api-keystone#/v1: barbican_headers#' "$VENV/etc/barbican/barbican-api-paste.ini" \
  >"$HOME_DIR/barbican-api-paste.ini"
cat >>"$HOME_DIR/barbican-api-paste.ini" <<'INI'

[pipeline:barbican_headers]
pipeline = cors request_id http_proxy_to_wsgi context microversion apiapp
INI
HOME="$HOME_DIR" "$VENV/bin/barbican-manage" db upgrade >"$HOME_DIR/db_upgrade.log" 2>&1

stop_app_on_signal
HOME="$HOME_DIR" "$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" --paste "$HOME_DIR/barbican-api-paste.ini" \
  >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "barbican did not come up on $PORT" "http://127.0.0.1:$PORT/"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$HOME_DIR/barbican.sqlite"
echo "barbican READY on $PORT"
wait "$APP_PID"
