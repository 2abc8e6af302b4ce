#!/usr/bin/env bash
# Start Matrix Synapse 1.163.2 FRESH on a new SQLite database, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Synapse's one client listener takes (127.0.0.1, plain HTTP, client and admin
#             APIs); refused when something already listens there
#   HOME_DIR  where homeserver.yaml, the signing key, homeserver.db and media are made
#             (default: mktemp -d); an old one is replaced
# Env:  VENV  virtualenv with matrix-synapse==1.163.2 installed (required)
# Prints "synapse READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The configuration is `--generate-config` for server name capenv.test plus capenv.yaml (this
# folder; no federation listener, no key servers, registration closed, rate limits out of the way),
# with the listener's port added here. The seed (seed.py) runs directly on the app port, never
# through the recording proxy: the admin by the shared-secret registration, the users and rooms by
# the admin and client APIs, then the admin's fixed throwaway access token into homeserver.db.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with matrix-synapse==1.163.2 installed}"

refuse_taken_port "$PORT"
rm -rf "$HOME_DIR/synapse"
DATA="$HOME_DIR/synapse"
mkdir -p "$DATA"
"$VENV/bin/python" -m synapse.app.homeserver --server-name capenv.test --report-stats=no \
  --config-path "$DATA/homeserver.yaml" --data-directory "$DATA" --generate-config >"$DATA/init.log" 2>&1 \
  || { echo "--generate-config failed, see $DATA/init.log" >&2; exit 1; }
# The generated file's listeners and database are replaced: later files win key by key.
cat >"$DATA/listen.yaml" <<YAML
listeners:
  - {port: $PORT, bind_addresses: ["127.0.0.1"], type: http, tls: false, x_forwarded: false,
     resources: [{names: [client], compress: false}]}
database: {name: sqlite3, args: {database: "$DATA/homeserver.db"}}
log_config: "$DATA/log.yaml"
YAML
cat >"$DATA/log.yaml" <<YAML
version: 1
formatters: {plain: {format: "%(asctime)s %(levelname)s %(name)s %(message)s"}}
handlers: {file: {class: logging.FileHandler, formatter: plain, filename: "$DATA/homeserver.log"}}
root: {level: WARNING, handlers: [file]}
disable_existing_loggers: false
YAML

stop_app_on_signal
# GIT_DIR: Synapse adds the branch and commit of a git checkout around its package to its version
# (server_version); a venv inside this repository (.ci/cache) would show capenv's.
GIT_DIR="$DATA/no-git" "$VENV/bin/python" -m synapse.app.homeserver -c "$DATA/homeserver.yaml" \
  -c "$HERE/capenv.yaml" -c "$DATA/listen.yaml" >>"$DATA/init.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "synapse did not come up on $PORT, see $DATA/init.log" "http://127.0.0.1:$PORT/health"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$DATA/homeserver.db"
echo "synapse READY on $PORT"
wait "$APP_PID"
