#!/usr/bin/env bash
# Start Express Gateway 1.16.11 (./app/server.js with the configuration of ./app/config) FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the admin API's port (127.0.0.1); refused when taken
#   HOME_DIR  where the app is copied (default: mktemp -d): HOME_DIR/app, removed first, with
#             node_modules linked to $EXPRESS_GATEWAY_DIR/node_modules. The admin API's config writes
#             (/api-endpoints, /service-endpoints, /pipelines, /policies) rewrite HOME_DIR/app/config/
#             gateway.config.yml, which the gateway reloads when it changes (about 2 s later).
# Env:  EG_GATEWAY_PORT      the gateway's own HTTP port (proxying /catalog/* to a closed port; not
#                            recorded), default a free port
#       EXPRESS_GATEWAY_DIR  the npm prefix with express-gateway 1.16.11 installed
#                            (captures/express-gateway/install/package.json; .ci/live-apps.sh; required)
# Prints "express-gateway READY on <port>" once up; stops on SIGINT/SIGTERM.
# Users, apps, credentials and scopes live in its emulated Redis (ioredis-mock): nothing is kept between
# starts. The seed (app/server.js) is made through its services before the ports open, with fixed ids
# and a fixed clock (2026-01-05T10:00:00Z), not the day of the start.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
EXPRESS_GATEWAY_DIR="${EXPRESS_GATEWAY_DIR:?set EXPRESS_GATEWAY_DIR to the npm prefix with express-gateway 1.16.11 installed}"
[ -f "$EXPRESS_GATEWAY_DIR/node_modules/express-gateway/package.json" ] \
  || { echo "no express-gateway in $EXPRESS_GATEWAY_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
GATEWAY_PORT="${EG_GATEWAY_PORT:-$(free_port)}"
refuse_taken_port "$GATEWAY_PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
EXPRESS_GATEWAY_DIR="$(cd "$EXPRESS_GATEWAY_DIR" && pwd)"
rm -rf "$HOME_DIR/app"
cp -a "$HERE/app" "$HOME_DIR/app"
ln -s "$EXPRESS_GATEWAY_DIR/node_modules" "$HOME_DIR/app/node_modules"

stop_app_on_signal
TZ=UTC LOG_LEVEL=warn EG_CONFIG_DIR="$HOME_DIR/app/config" node "$HOME_DIR/app/server.js" "$PORT" "$GATEWAY_PORT" &
APP_PID=$!
# The ports open only after the seed is made.
wait_until_up 600 0.2 "express-gateway did not come up on $PORT" "http://127.0.0.1:$PORT/users/alice"
echo "express-gateway READY on $PORT"
wait "$APP_PID"
