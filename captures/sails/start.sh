#!/usr/bin/env bash
# Start a Sails 1.5.18 app (./project: three models, no controllers: Sails's REST blueprints answer
# every route) FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Sails listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where the app is copied (default: mktemp -d): HOME_DIR/app, removed first, with
#             node_modules linked to $SAILS_DIR/node_modules and its sails-disk records in
#             HOME_DIR/app/.tmp/localDiskDb (so every start begins with no records)
# Env:  SAILS_DIR  the npm prefix with sails 1.5.18, sails-hook-orm 4.0.3 and sails-disk 2.1.2
#                  installed (captures/sails/install/package.json; .ci/live-apps.sh; required)
# Prints "sails READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The seed is project/config/bootstrap.js: Sails runs it before it opens the port, so it is never
# recorded; its records' createdAt/updatedAt are fixed instants, not the day of the start.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
SAILS_DIR="${SAILS_DIR:?set SAILS_DIR to the npm prefix with sails 1.5.18 installed}"
[ -f "$SAILS_DIR/node_modules/sails/package.json" ] || { echo "no sails in $SAILS_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
SAILS_DIR="$(cd "$SAILS_DIR" && pwd)"
rm -rf "$HOME_DIR/app"
cp -a "$HERE/project" "$HOME_DIR/app"
ln -s "$SAILS_DIR/node_modules" "$HOME_DIR/app/node_modules"

stop_app_on_signal
# production: terse error answers (no tips, no stack traces); the log only warns.
NODE_ENV=production node "$HOME_DIR/app/app.js" "$PORT" &
APP_PID=$!
# The port opens only after the bootstrap (the seed) has run.
wait_until_up 600 0.2 "sails did not come up on $PORT" "http://127.0.0.1:$PORT/tag/5"
echo "sails READY on $PORT"
wait "$APP_PID"
