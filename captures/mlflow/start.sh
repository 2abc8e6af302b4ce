#!/usr/bin/env bash
# Start an MLflow 3.17.2 tracking server FRESH (new SQLite backend store) on 127.0.0.1:PORT, seed
# it with seed.py DIRECTLY on the app port (the seed is never recorded), print
# "MLFLOW READY on <port>", and run in the foreground until SIGINT/SIGTERM.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the app port (required; a port already listening is refused)
#   HOME_DIR  where the store lives (default: mktemp -d). start.sh owns HOME_DIR/mlflow.db and
#             HOME_DIR/mlartifacts and recreates both at every start.
# Env:   VENV  virtualenv with mlflow==3.17.2 installed (required)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
APP_PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with mlflow==3.17.2 installed}"
MLFLOW="$VENV/bin/mlflow"
[ -x "$MLFLOW" ] || { echo "no mlflow in $VENV/bin" >&2; exit 1; }

refuse_taken_port "$APP_PORT"
mkdir -p "$HOME_DIR"; HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/mlflow.db" "$HOME_DIR/mlartifacts"
cd "$HOME_DIR"

export MLFLOW_DISABLE_TELEMETRY=true DO_NOT_TRACK=true   # no usage telemetry
export MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false          # no background job-runner process
# Artifacts go through the server's proxy (mlflow-artifacts:/...), so no machine path reaches an
# answer (a --default-artifact-root directory would appear in every artifact_location/artifact_uri).
# One uvicorn worker: a single process owns the SQLite file.
setsid "$MLFLOW" server --backend-store-uri "sqlite:///$HOME_DIR/mlflow.db" \
  --artifacts-destination "$HOME_DIR/mlartifacts" \
  --host 127.0.0.1 --port "$APP_PORT" --workers 1 &
SPID=$!
stop() { kill -TERM -- "-$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; exit 0; }
trap stop INT TERM

up=0
for i in $(seq 1 400); do     # the server imports for 20-45 s on this 2-core machine
  if curl -sf -o /dev/null "http://127.0.0.1:$APP_PORT/health"; then up=1; break; fi
  kill -0 "$SPID" 2>/dev/null || break
  sleep 0.3
done
[ "$up" = 1 ] || { echo "mlflow server did not come up on $APP_PORT" >&2; stop; exit 1; }
"$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$APP_PORT" || { echo "seed failed" >&2; stop; exit 1; }
echo "MLFLOW READY on $APP_PORT (pid $SPID, store $HOME_DIR)"
wait "$SPID"
