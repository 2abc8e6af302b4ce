#!/usr/bin/env bash
# Start OpenStack Aodh 23.0.0 (the alarming API) FRESH on a new SQLite database, then seed it through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port aodh-api (pbr's wsgiref server for aodh.api.app:build_wsgi_app, one request at a
#             time) listens on (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): aodh.conf and aodh.db (an old one is removed)
# Env:  VENV  virtualenv with aodh==23.0.0 installed (.ci/live-apps.sh; required)
# Prints "aodh READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# [api] auth_mode = noauth: no Keystone; a request names its identity in X-User-Id, X-Project-Id and
# X-Roles headers, which the API trusts (admin: every project's alarms and quotas). No evaluator,
# notifier or listener runs, and notifications go nowhere (oslo.messaging's fake transport, the noop
# notification driver): nothing leaves loopback, and an alarm's state changes only through the API.
# project_alarm_quota = 100: a quota read of a project without one stores this default (-1 out of the box,
# which then refuses every create of that project: `>= -1`); 100 is never reached here.
# `aodh-dbsync` makes the schema (~10 s). The seed (seed.py, directly on the app port, never through
# the recording proxy) makes alarms whose random ids (and their history events' ids) it then fixes
# in the SQLite database, so probes can name them.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with aodh==23.0.0 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -f "$HOME_DIR/aodh.db"
cat >"$HOME_DIR/aodh.conf" <<CFG
[DEFAULT]
use_stderr = true
transport_url = fake://
[api]
auth_mode = noauth
project_alarm_quota = 100
[database]
connection = sqlite:///$HOME_DIR/aodh.db
[oslo_messaging_notifications]
driver = noop
CFG
"$VENV/bin/aodh-dbsync" --config-file "$HOME_DIR/aodh.conf" >"$HOME_DIR/dbsync.log" 2>&1 \
  || { cat "$HOME_DIR/dbsync.log" >&2; exit 1; }

stop_app_on_signal
cd "$HOME_DIR"
"$VENV/bin/aodh-api" --host 127.0.0.1 --port "$PORT" -- --config-file "$HOME_DIR/aodh.conf" \
  >"$HOME_DIR/api.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "aodh did not come up on $PORT" "http://127.0.0.1:$PORT/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$HOME_DIR/aodh.db"
echo "aodh READY on $PORT"
wait "$APP_PID"
