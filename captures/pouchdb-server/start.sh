#!/usr/bin/env bash
# Start PouchDB Server 4.2.0 (the CouchDB HTTP API on PouchDB, LevelDB storage) FRESH and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port PouchDB Server listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  its working directory (default: mktemp -d): the databases (LevelDB folders), its
#             config.json (with a fixed server uuid) and log.txt are made in HOME_DIR/data, removed first
# Env:  POUCHDB_SERVER_DIR  the npm prefix with pouchdb-server@4.2.0 installed (.ci/live-apps.sh; required)
# Prints "pouchdb-server READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# No admin is configured ("admin party": every call may write), as a fresh CouchDB is. The seed
# (seed.py) runs directly on the app port, never through the recording proxy: databases `books`
# and `authors` and their documents with fixed ids. PouchDB computes a revision from the document's
# content (`1-<md5>`), so every start gives the seed documents the same revisions.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
POUCHDB_SERVER_DIR="${POUCHDB_SERVER_DIR:?set POUCHDB_SERVER_DIR to the npm prefix with pouchdb-server@4.2.0 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/data"
mkdir -p "$HOME_DIR/data"
cd "$HOME_DIR/data"

# The server's own uuid (GET / answers it) is made up at random on the first start unless the
# config holds one: a fixed throwaway value, so every start is the same installation.
cat >"$HOME_DIR/data/config.json" <<'JSON'
{"couchdb": {"uuid": "5b7c9e3a1d2f4e6a8b0c2d4e6f8a0b1c"}}
JSON

stop_app_on_signal
# -n: the log goes to data/log.txt only, not to stdout.
node "$POUCHDB_SERVER_DIR/node_modules/pouchdb-server/bin/pouchdb-server" \
  --port "$PORT" --host 127.0.0.1 --dir "$HOME_DIR/data/" --config "$HOME_DIR/data/config.json" -n &
APP_PID=$!
wait_until_up 600 0.1 "pouchdb-server did not come up on $PORT" "http://127.0.0.1:$PORT/"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "pouchdb-server READY on $PORT"
wait "$APP_PID"
