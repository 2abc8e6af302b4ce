#!/usr/bin/env bash
# Start OpenStack Placement 16.0.0 FRESH on a new home directory (SQLite), then seed it (seed.py:
# fixed uuids; besides the standard resource classes and traits `placement-manage db sync` makes).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the API (gunicorn, one sync worker, placement.wsgi.api:application) listens on
#             (127.0.0.1); refused when taken
#   HOME_DIR  where placement.conf and placement.db are made (default: mktemp -d); an old database is
#             replaced
# Env:  VENV  virtualenv with openstack-placement==16.0.0 and gunicorn installed (required)
# Prints "placement READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# auth_strategy = noauth2: no Keystone; a request sends `X-Auth-Token: admin` (user admin, role admin).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with openstack-placement==16.0.0 and gunicorn installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -f "$HOME_DIR/placement.db"
cat >"$HOME_DIR/placement.conf" <<CFG
[DEFAULT]
use_stderr = true
[api]
auth_strategy = noauth2
[placement_database]
connection = sqlite:///$HOME_DIR/placement.db
sync_on_startup = false
CFG
export OS_PLACEMENT_CONFIG_DIR="$HOME_DIR"
"$VENV/bin/placement-manage" --config-file "$HOME_DIR/placement.conf" db sync >"$HOME_DIR/db_sync.log" 2>&1

stop_app_on_signal
"$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 \
  --control-socket "$HOME_DIR/gunicorn.ctl" placement.wsgi.api:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "placement did not come up on $PORT" "http://127.0.0.1:$PORT/"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "placement READY on $PORT"
wait "$APP_PID"
