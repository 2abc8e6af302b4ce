#!/usr/bin/env bash
# Start RabbitMQ 3.10.8 (Debian bookworm's rabbitmq-server, with the rabbitmq_management plugin)
# FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the management HTTP API's port (127.0.0.1); refused when something listens
#   HOME_DIR  where its database, configuration and Erlang cookie go (default: mktemp -d); an
#             old rmq-home below it is removed
# Env:  RABBITMQ_ROOT  the unpacked packages (rabbitmq-server and the Erlang packages it needs,
#       `dpkg -x` into one DIR; default the repository's .ci/cache/rabbitmq, where
#       .ci/live-apps.sh puts them)
# Prints "rabbitmq READY on <port>" once up; stops on SIGINT/SIGTERM (the broker, then its epmd).
# The seed is definitions.json, imported by the broker itself on boot (load_definitions): users
# admin, monitor, orders-app (fixed password hashes), vhosts / and staging, permissions,
# exchanges, queues, bindings and one policy. No AMQP listener; statistics are off, so reads show
# only what was configured. Every start has its own epmd and distribution port (free ports the
# system picks, on 127.0.0.1), so two instances never meet even though the node name is always
# rabbit@localhost (the name shows in answers: `node`, `cluster_state`).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
ROOT="$(cd "${RABBITMQ_ROOT:-$HERE/../../.ci/cache/rabbitmq}" 2>/dev/null && pwd || true)"
SERVER="$ROOT/usr/lib/rabbitmq/lib/rabbitmq_server-3.10.8/sbin/rabbitmq-server"
ERL_BIN="$ROOT/usr/lib/erlang/bin"
[ -x "$SERVER" ] && [ -x "$ERL_BIN/erl" ] || { echo "no $SERVER: run bash .ci/live-apps.sh install" >&2; exit 1; }

refuse_taken_port "$PORT"
RMQ_HOME="$(mkdir -p "$HOME_DIR" && cd "$HOME_DIR" && pwd)/rmq-home"
rm -rf "$RMQ_HOME"
mkdir -p "$RMQ_HOME"
cp "$HERE/definitions.json" "$RMQ_HOME/definitions.json"
sed -e "s|@PORT@|$PORT|" -e "s|@DEFINITIONS@|$RMQ_HOME/definitions.json|" "$HERE/rabbitmq.conf" > "$RMQ_HOME/rabbitmq.conf"
echo '[rabbitmq_management].' > "$RMQ_HOME/enabled_plugins"
: > "$RMQ_HOME/rabbitmq-env.conf"
EPMD_PORT="$(free_port)"
DIST_PORT="$(free_port)"

export PATH="$ERL_BIN:$PATH" HOME="$RMQ_HOME" ERL_EPMD_PORT="$EPMD_PORT" ERL_EPMD_ADDRESS=127.0.0.1 \
  RABBITMQ_CONF_ENV_FILE="$RMQ_HOME/rabbitmq-env.conf" RABBITMQ_CONFIG_FILE="$RMQ_HOME/rabbitmq.conf" \
  RABBITMQ_ADVANCED_CONFIG_FILE="$RMQ_HOME/advanced.config" RABBITMQ_MNESIA_BASE="$RMQ_HOME/mnesia" \
  RABBITMQ_LOG_BASE="$RMQ_HOME/log" RABBITMQ_ENABLED_PLUGINS_FILE="$RMQ_HOME/enabled_plugins" \
  RABBITMQ_PID_FILE="$RMQ_HOME/rabbitmq.pid" RABBITMQ_NODENAME=rabbit@localhost RABBITMQ_DIST_PORT="$DIST_PORT" \
  RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"

EPMD_PID=""
stop_broker() {
  [ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null
  [ -n "$EPMD_PID" ] && kill -TERM "$EPMD_PID" 2>/dev/null && wait "$EPMD_PID" 2>/dev/null
  exit 0
}
trap stop_broker INT TERM
# its own epmd, in the foreground of this script, so that it stops with the broker
epmd -port "$EPMD_PORT" -address 127.0.0.1 &
EPMD_PID=$!
"$SERVER" &
APP_PID=$!
wait_until_up 600 0.1 "rabbitmq did not come up on $PORT" \
  -u admin:capenv-rabbitmq-throwaway "http://127.0.0.1:$PORT/api/vhosts/staging"
echo "rabbitmq READY on $PORT"
wait "$APP_PID"
kill -TERM "$EPMD_PID" 2>/dev/null || true
