#!/usr/bin/env bash
# Start devpi-server 6.20.3 FRESH on a new server directory (SQLite keyfs), then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port devpi-server (waitress) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the server directory and the secret file are made (default: mktemp -d); an old
#             server directory is replaced
# Env:  VENV  virtualenv with devpi-server==6.20.3 installed (required)
# Prints "devpi READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# `devpi-init --no-root-pypi` makes the root user (a throwaway password) and no root/pypi mirror;
# `--offline-mode` keeps the server from ever reaching upstream (nothing here needs the network).
# `--outside-url` fixes the URLs the server writes (/+api's login) whatever PORT is, and the
# secret file holds a fixed throwaway secret (login tokens are signed with it). The seed (seed.py)
# runs directly on the app port, never through the recording proxy, as root.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with devpi-server==6.20.3 installed}"
ROOT_PASS=capenv-devpi-throwaway

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
chmod 700 "$HOME_DIR"   # devpi refuses a secret file in a folder others may write
rm -rf "$HOME_DIR/server"
SECRET="$HOME_DIR/secret"
printf 'capenv-devpi-throwaway-secret-0123456789abcdef' >"$SECRET"
chmod 600 "$SECRET"
"$VENV/bin/devpi-init" --serverdir "$HOME_DIR/server" --no-root-pypi --root-passwd "$ROOT_PASS" \
  >"$HOME_DIR/init.log" 2>&1 || { cat "$HOME_DIR/init.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/devpi-server" --serverdir "$HOME_DIR/server" --secretfile "$SECRET" --host 127.0.0.1 \
  --port "$PORT" --offline-mode --outside-url http://devpi.capenv.test --threads 4 &
APP_PID=$!
wait_until_up 1200 0.2 "devpi-server did not come up on $PORT" "http://127.0.0.1:$PORT/+api"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" root "$ROOT_PASS"
echo "devpi READY on $PORT"
wait "$APP_PID"
