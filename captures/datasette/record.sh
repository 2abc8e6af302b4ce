#!/usr/bin/env bash
# Record one HAR: fresh Datasette (start.sh: new blog.db from seed.sql) + mitmdump reverse proxy
# + driver.py, then SIGINT to mitmdump (it writes the HAR on exit), then stop the app.
# Usage: ./record.sh            -> writes capture.har next to this script.
# Env:   VENV (datasette venv), MITM_VENV (venv with mitmproxy==11.0.2 + httpx), APP_PORT,
#        PROXY_PORT, LOGDIR
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42310}"; PROXY_PORT="${PROXY_PORT:-42311}"
export VENV="${VENV:?set VENV to the datasette venv}"
MITM_VENV="${MITM_VENV:?set MITM_VENV to a venv with mitmproxy and httpx}"
OUT="$HERE/capture.har"
LOGDIR="${LOGDIR:-$(mktemp -d)}"; mkdir -p "$LOGDIR"
HOME_DIR="$(mktemp -d)"
rm -f "$OUT"
"$HERE/start.sh" "$APP_PORT" "$HOME_DIR" >"$LOGDIR/app.log" 2>&1 &
APP_PID=$!
for i in $(seq 1 300); do
  grep -qs "datasette READY" "$LOGDIR/app.log" && break
  kill -0 $APP_PID 2>/dev/null || { echo "start.sh died, see $LOGDIR/app.log" >&2; exit 1; }
  sleep 0.2
done
"$MITM_VENV/bin/mitmdump" --mode "reverse:http://127.0.0.1:$APP_PORT" --listen-host 127.0.0.1 \
  --listen-port "$PROXY_PORT" --set hardump="$OUT" --set flow_detail=0 >"$LOGDIR/proxy.log" 2>&1 &
PROXY_PID=$!
for i in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/$PROXY_PORT) 2>/dev/null && break; sleep 0.2; done
kill -0 $PROXY_PID 2>/dev/null || { echo "mitmdump did not start, see $LOGDIR/proxy.log" >&2; exit 1; }
"$MITM_VENV/bin/python" "$HERE/driver.py" --base "http://127.0.0.1:$PROXY_PORT" --mode capture -v \
  2>"$LOGDIR/driver.log" || true
grep UNEXPECTED "$LOGDIR/driver.log" || true
tail -n 1 "$LOGDIR/driver.log"
sleep 0.5
kill -INT "$PROXY_PID"; wait "$PROXY_PID" || true
kill -TERM "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
rm -rf "$HOME_DIR"
python3 -c "import json; h=json.load(open('$OUT')); print('$OUT', len(h['log']['entries']), 'entries')"
