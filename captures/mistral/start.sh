#!/usr/bin/env bash
# Start Mistral 23.0.0 (OpenStack's workflow service, its v2 API) FRESH on a new SQLite database, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port serve.py (mistral's pecan application under wsgiref, one request at a time)
#             listens on (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): mistral.conf and mistral.db (an old one is removed)
# Env:  VENV  virtualenv with mistral==23.0.0 installed (.ci/live-apps.sh; required)
# Prints "mistral READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# [pecan] auth_enable = false: no Keystone, every call is the one default project's (<default-project>).
# Only the API runs: no engine, executor, event engine or periodic cron processing ([cron_trigger]
# run_in_api = false), and oslo.messaging's fake transport goes nowhere, so nothing leaves loopback and
# no execution ever starts (the scenario makes none). The schema comes from the models (serve.py --init:
# `mistral-db-manage upgrade head` fails on SQLite), then `mistral-db-manage populate` loads the
# standard actions (std.echo, std.noop, std.http, ...), ~5 s together.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with mistral==23.0.0 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -f "$HOME_DIR/mistral.db"
cat >"$HOME_DIR/mistral.conf" <<CFG
[DEFAULT]
use_stderr = true
transport_url = fake://
[pecan]
auth_enable = false
[cron_trigger]
run_in_api = false
[database]
connection = sqlite:///$HOME_DIR/mistral.db
[oslo_messaging_notifications]
driver = noop
CFG
cd "$HOME_DIR"
{ "$VENV/bin/python" "$HERE/serve.py" --init "$HOME_DIR/mistral.conf" \
    && "$VENV/bin/mistral-db-manage" --config-file "$HOME_DIR/mistral.conf" populate; } >"$HOME_DIR/db.log" 2>&1 \
  || { cat "$HOME_DIR/db.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/python" "$HERE/serve.py" "$HOME_DIR/mistral.conf" "$PORT" >"$HOME_DIR/api.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "mistral did not come up on $PORT" "http://127.0.0.1:$PORT/v2"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$HOME_DIR/mistral.db"
echo "mistral READY on $PORT"
wait "$APP_PID"
