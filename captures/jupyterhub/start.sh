#!/usr/bin/env bash
# Start JupyterHub 5.4.3 FRESH (a new sqlite database in HOME_DIR), with its REST API on
# 127.0.0.1:PORT/hub/api/ (the Hub's own port, hub_bind_url), then seed it through that API
# (seed.py; the seed is not recorded).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the Hub listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  the Hub's data directory (default: mktemp -d); an old database there is replaced
# Env:  VENV     virtualenv with jupyterhub==5.4.3 installed (required)
#       CHP_DIR  npm prefix with configurable-http-proxy@4.6.3 installed (required: the Hub
#                starts the proxy and will not run without it; its two ports are picked free)
# Prints "jupyterhub READY on <port>" once seeded; stops the Hub (and its proxy) on SIGINT/SIGTERM.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with jupyterhub==5.4.3 installed}"
CHP_DIR="${CHP_DIR:?set CHP_DIR to an npm prefix with configurable-http-proxy@4.6.3 installed}"
TOKEN="capenv-jupyterhub-throwaway-api-token-0001"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -f "$HOME_DIR"/jupyterhub.sqlite "$HOME_DIR"/jupyterhub_cookie_secret "$HOME_DIR"/*.pid
read -r PROXY_PORT PROXY_API_PORT < <("$VENV/bin/python" - <<'PY'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
PY
)
export CAPENV_HUB_PORT="$PORT" CAPENV_HUB_HOME="$HOME_DIR" CAPENV_PROXY_PORT="$PROXY_PORT" \
  CAPENV_PROXY_API_PORT="$PROXY_API_PORT" CAPENV_CHP="$CHP_DIR/node_modules/.bin/configurable-http-proxy"

stop_app_on_signal
cd "$HOME_DIR"
"$VENV/bin/jupyterhub" -f "$HERE/jupyterhub_config.py" &
APP_PID=$!
wait_until_up 300 0.1 "jupyterhub did not come up on $PORT" \
  -H "Authorization: token $TOKEN" "http://127.0.0.1:$PORT/hub/api/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "jupyterhub READY on $PORT"
wait "$APP_PID"
