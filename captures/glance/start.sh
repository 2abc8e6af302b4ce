#!/usr/bin/env bash
# Start OpenStack Glance 33.0.0 FRESH on a new home directory (SQLite, the file store under the home),
# then seed it (seed.py: through the API, then fixed clocks in the database).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the v2 API (gunicorn, one sync worker, glance.wsgi.api) listens on (127.0.0.1);
#             refused when taken
#   HOME_DIR  where glance-api.conf, glance.sqlite and the image, staging and task stores are made
#             (default: mktemp -d); an old database is replaced
# Env:  VENV  virtualenv with glance==33.0.0 and gunicorn installed (required)
# Prints "glance READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# No Keystone: the paste flavor `headers` is the shipped keystone pipeline without `authtoken`, so
# Glance's `context` filter makes the request's own headers the identity: `X-Identity-Status:
# Confirmed`, `X-Tenant-Id`, `X-User-Id`, `X-Roles`. (The shipped flavorless pipeline's
# unauthenticated context has no roles, and the default policies refuse it public images and every
# metadefs write.) public_endpoint is fixed (http://localhost:9292) so the
# version document's hrefs are the same whatever port or proxy the client talks to.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with glance==33.0.0 and gunicorn installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR/conf" "$HOME_DIR/images" "$HOME_DIR/staging" "$HOME_DIR/tasks"
rm -f "$HOME_DIR/glance.sqlite"
cat >"$HOME_DIR/conf/glance-api.conf" <<CFG
[DEFAULT]
public_endpoint = http://localhost:9292
worker_self_reference_url = http://127.0.0.1:$PORT
use_stderr = true
node_staging_uri = file://$HOME_DIR/staging
[database]
connection = sqlite:///$HOME_DIR/glance.sqlite
[paste_deploy]
config_file = $HOME_DIR/conf/glance-api-paste.ini
flavor = headers
[glance_store]
stores = file
default_store = file
filesystem_store_datadir = $HOME_DIR/images
[os_glance_staging_store]
filesystem_store_datadir = $HOME_DIR/staging
[os_glance_tasks_store]
filesystem_store_datadir = $HOME_DIR/tasks
[oslo_policy]
enforce_new_defaults = false
CFG
sed -e 's#^keystone = \(.*\) authtoken context rootapp$#&\nheaders = \1 context rootapp#' \
  "$VENV/etc/glance/glance-api-paste.ini" >"$HOME_DIR/conf/glance-api-paste.ini"
cat >>"$HOME_DIR/conf/glance-api-paste.ini" <<'INI'

[composite:glance-api-headers]
paste.composite_factory = glance.api:root_app_factory
/: api
/healthcheck: healthcheck
INI
"$VENV/bin/glance-manage" --config-file "$HOME_DIR/conf/glance-api.conf" db_sync >"$HOME_DIR/db_sync.log" 2>&1

stop_app_on_signal
# PYTHONHASHSEED: Glance keeps an image's tags in a Python set and answers them in its iteration
# order, which string hashing randomises per process; a fixed seed answers them alike on every start.
PYTHONHASHSEED=0 OS_GLANCE_CONFIG_DIR="$HOME_DIR/conf" "$VENV/bin/gunicorn" --bind "127.0.0.1:$PORT" --workers 1 \
  --timeout 120 --control-socket "$HOME_DIR/gunicorn.ctl" glance.wsgi.api:application \
  >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "glance did not come up on $PORT" "http://127.0.0.1:$PORT/healthcheck"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$HOME_DIR/glance.sqlite"
echo "glance READY on $PORT"
wait "$APP_PID"
