#!/usr/bin/env bash
# Record one HAR: fresh MLflow tracking server (start.sh: new SQLite store + seed.py) + mitmdump
# reverse proxy + driver.py, then SIGINT to mitmdump (it writes the HAR on exit).
# Usage: ./record.sh [capture]   -> writes capture.har next to this script.
# Env:   VENV (mlflow venv), MITM_VENV (venv with mitmproxy==11.0.2 + httpx), APP_PORT (25310),
#        PROXY_PORT (25311), LOGDIR (default mktemp -d)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
MODE="${1:-capture}"
APP_PORT="${APP_PORT:-25310}"; PROXY_PORT="${PROXY_PORT:-25311}"
export VENV="${VENV:?set VENV to the mlflow venv}"
MITM_VENV="${MITM_VENV:?set MITM_VENV to a venv with mitmproxy and httpx}"
OUT="$HERE/$MODE.har"
LOGDIR="${LOGDIR:-$(mktemp -d)}"; mkdir -p "$LOGDIR"
HOME_DIR="$(mktemp -d)"
if (exec 3<>"/dev/tcp/127.0.0.1/$PROXY_PORT") 2>/dev/null; then
  echo "proxy port $PROXY_PORT is already in use" >&2; exit 1
fi
rm -f "$OUT"
"$HERE/start.sh" "$APP_PORT" "$HOME_DIR" >"$LOGDIR/app-$MODE.log" 2>&1 &
APP_PID=$!
for i in $(seq 1 600); do
  grep -q "MLFLOW READY" "$LOGDIR/app-$MODE.log" && break
  kill -0 $APP_PID 2>/dev/null || { echo "start.sh died, see $LOGDIR/app-$MODE.log" >&2; exit 1; }
  sleep 0.5
done
grep -q "MLFLOW READY" "$LOGDIR/app-$MODE.log" || { echo "no READY, see $LOGDIR" >&2; kill -TERM $APP_PID; exit 1; }
"$MITM_VENV/bin/mitmdump" --mode "reverse:http://127.0.0.1:$APP_PORT" --listen-host 127.0.0.1 \
  --listen-port "$PROXY_PORT" --set hardump="$OUT" --set flow_detail=0 >"$LOGDIR/proxy-$MODE.log" 2>&1 &
PROXY_PID=$!
for i in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/$PROXY_PORT) 2>/dev/null && break; sleep 0.2; done
"$MITM_VENV/bin/python" "$HERE/driver.py" --base "http://127.0.0.1:$PROXY_PORT" --mode "$MODE" \
  2>"$LOGDIR/driver-$MODE.log" || true
tail -n 3 "$LOGDIR/driver-$MODE.log"
sleep 0.5
kill -INT "$PROXY_PID"; wait "$PROXY_PID" || true
kill -TERM "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
rm -rf "$HOME_DIR"
python3 -c "import json,sys; h=json.load(open('$OUT')); print('$OUT', len(h['log']['entries']), 'entries')"
