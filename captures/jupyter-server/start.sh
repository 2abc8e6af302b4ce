#!/usr/bin/env bash
# Start Jupyter Server 2.21.1 FRESH (an empty root dir, a fixed throwaway token), then seed it with
# seed.py DIRECTLY on the app port (the seed is never recorded).
# Usage: ./start.sh [PORT] [HOME_DIR]   (default 42030; HOME_DIR default: mktemp -d)
#        Runs in the foreground until SIGINT/SIGTERM; prints "jupyter-server READY on <port>" once
#        seeded. HOME_DIR must be empty or absent: it receives root/ (the served root_dir), home/
#        (HOME, Jupyter/IPython config, data, runtime and the send2trash trash), tmp/ (TMPDIR)
#        and server.log.
# Env:   VENV  virtualenv with jupyter_server==2.21.1 and ipykernel==7.4.0 (required)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
APP_PORT="${1:-42030}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with jupyter_server==2.21.1 and ipykernel==7.4.0}"
TOKEN="jupyter-capture-token-not-a-secret-0001"

refuse_taken_port "$APP_PORT"
mkdir -p "$HOME_DIR"
if [ -n "$(ls -A "$HOME_DIR")" ]; then
  echo "$HOME_DIR is not empty: give an empty or new directory (the start must be fresh)" >&2; exit 1
fi
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
ROOT="$HOME_DIR/root"
mkdir -p "$ROOT" "$HOME_DIR/home" "$HOME_DIR/tmp"

# Everything Jupyter, IPython and send2trash write goes under HOME_DIR, and no user or system
# config file is read (JUPYTER_NO_CONFIG), so two starts behave alike on any machine.
unset JUPYTER_PATH JUPYTER_CONFIG_PATH JUPYTER_TOKEN JUPYTER_GATEWAY_URL
export HOME="$HOME_DIR/home"
export JUPYTER_CONFIG_DIR="$HOME/.jupyter" JUPYTER_DATA_DIR="$HOME/.local/share/jupyter"
export JUPYTER_RUNTIME_DIR="$HOME/.local/share/jupyter/runtime" IPYTHONDIR="$HOME/.ipython"
export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"
export JUPYTER_PLATFORM_DIRS=1 JUPYTER_NO_CONFIG=1 PYTHONUNBUFFERED=1
# JUPYTER_NO_CONFIG makes every Jupyter process (server, kernels) create an empty
# jupyter-clean-cfg-* dir in TMPDIR and leave it: keep those under HOME_DIR too.
export TMPDIR="$HOME_DIR/tmp"

# Nothing here calls out to the network: no gateway (JUPYTER_GATEWAY_URL unset), no browser,
# no extension besides the bundled terminals one; port_retries=0 so the server never moves to
# another port when PORT is taken. --allow-root: the recording box runs as root (harmless
# otherwise). IdentityProvider.token is the non-deprecated name of ServerApp.token.
SPID=""
trap '[ -n "$SPID" ] && kill -TERM $SPID 2>/dev/null; wait $SPID 2>/dev/null; exit 0' INT TERM
cd "$HOME_DIR"
# Ports 42000-42999 lie in the kernel's ephemeral range: another program's client socket bound to
# PORT makes the server exit with "The port ... is already in use" although nothing listens; retry.
up=0
for attempt in $(seq 1 30); do
  "$VENV/bin/jupyter" server --ServerApp.ip=127.0.0.1 --port "$APP_PORT" --ServerApp.port_retries=0 \
    --IdentityProvider.token="$TOKEN" --no-browser --ServerApp.root_dir="$ROOT" --allow-root \
    >>"$HOME_DIR/server.log" 2>&1 &
  SPID=$!
  for i in $(seq 1 200); do
    if curl -sf -o /dev/null -H "Authorization: token $TOKEN" "http://127.0.0.1:$APP_PORT/api/status"; then
      up=1; break
    fi
    kill -0 $SPID 2>/dev/null || break
    sleep 0.3
  done
  [ "$up" = 1 ] && break
  kill -TERM $SPID 2>/dev/null || true; wait $SPID 2>/dev/null || true
  grep -q "is already in use" "$HOME_DIR/server.log" || break
  echo "port $APP_PORT is held by a client socket (attempt $attempt), retrying in 3 s" >&2
  : >"$HOME_DIR/server.log"; sleep 3
done
[ "$up" = 1 ] || { echo "jupyter server did not come up on $APP_PORT:" >&2; tail -n 20 "$HOME_DIR/server.log" >&2; exit 1; }
"$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$APP_PORT" "$TOKEN"
echo "jupyter-server READY on $APP_PORT (pid $SPID, home $HOME_DIR)"
wait $SPID
