#!/usr/bin/env bash
# Record one HAR of an application of captures/: start it fresh (its start.sh PORT HOME seeds it and
# prints "... READY ..."), put a mitmdump reverse proxy in front, run its driver.py through the
# proxy, then SIGINT mitmdump (it writes the HAR on exit) and stop the application.
# Usage: captures/kit/record.sh APP_DIR [MODE]   -> writes APP_DIR/MODE.har (MODE: capture)
# An APP_DIR/mitm_addon.py, when there, is loaded into mitmdump (`-s`): what the application needs
# of the proxy that the recording cannot do without (its own docstring says why).
# Env:   MITM_VENV (a venv with mitmproxy==11.0.2 and httpx), APP_PORT, PROXY_PORT, LOGDIR,
#        UPSTREAM_SCHEME (http, or https for an application that serves only TLS: the proxy then
#        talks TLS to it without verifying its self-signed certificate, while the driver still
#        talks plain HTTP to the proxy), and whatever the application's start.sh needs (its README says).
set -euo pipefail
APP_DIR="$(cd "${1:?usage: record.sh APP_DIR [MODE]}" && pwd)"
MODE="${2:-capture}"
APP_PORT="${APP_PORT:?set APP_PORT}"; PROXY_PORT="${PROXY_PORT:?set PROXY_PORT}"
UPSTREAM_SCHEME="${UPSTREAM_SCHEME:-http}"
case "$UPSTREAM_SCHEME" in
  http) UPSTREAM_TLS=() ;;
  https) UPSTREAM_TLS=(--ssl-insecure) ;;
  *) echo "UPSTREAM_SCHEME must be http or https" >&2; exit 1 ;;
esac
MITM_VENV="${MITM_VENV:?set MITM_VENV to a venv with mitmproxy and httpx}"
OUT="$APP_DIR/$MODE.har"
LOGDIR="${LOGDIR:-$(mktemp -d)}"; mkdir -p "$LOGDIR"
HOME_DIR="$(mktemp -d)"
if (exec 3<>"/dev/tcp/127.0.0.1/$PROXY_PORT") 2>/dev/null; then
  echo "proxy port $PROXY_PORT is already in use" >&2; exit 1
fi
rm -f "$OUT"
"$APP_DIR/start.sh" "$APP_PORT" "$HOME_DIR" >"$LOGDIR/app-$MODE.log" 2>&1 &
APP_PID=$!
for i in $(seq 1 1200); do
  grep -qs "READY" "$LOGDIR/app-$MODE.log" && break
  kill -0 $APP_PID 2>/dev/null || { echo "start.sh died, see $LOGDIR/app-$MODE.log" >&2; exit 1; }
  sleep 0.5
done
grep -qs "READY" "$LOGDIR/app-$MODE.log" || { echo "no READY, see $LOGDIR" >&2; kill -TERM $APP_PID; exit 1; }
ADDON_ARGS=()
[ -f "$APP_DIR/mitm_addon.py" ] && ADDON_ARGS=(-s "$APP_DIR/mitm_addon.py")
# PROXY_PORT can be briefly blocked by another program's client socket in TIME_WAIT: retry.
for attempt in $(seq 1 30); do
  "$MITM_VENV/bin/mitmdump" --mode "reverse:$UPSTREAM_SCHEME://127.0.0.1:$APP_PORT" "${UPSTREAM_TLS[@]}" --listen-host 127.0.0.1 \
    --listen-port "$PROXY_PORT" --set hardump="$OUT" --set flow_detail=0 "${ADDON_ARGS[@]}" >"$LOGDIR/proxy-$MODE.log" 2>&1 &
  PROXY_PID=$!
  for i in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PROXY_PORT") 2>/dev/null && break; sleep 0.2; done
  kill -0 $PROXY_PID 2>/dev/null && break
  echo "mitmdump did not start on $PROXY_PORT (attempt $attempt), retrying" >&2; sleep 3
done
"$MITM_VENV/bin/python" "$APP_DIR/driver.py" --base "http://127.0.0.1:$PROXY_PORT" --mode "$MODE" -v \
  2>"$LOGDIR/driver-$MODE.log" || true
grep UNEXPECTED "$LOGDIR/driver-$MODE.log" || true
tail -n 1 "$LOGDIR/driver-$MODE.log"
sleep 0.5
kill -INT "$PROXY_PID"; wait "$PROXY_PID" || true
kill -TERM "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
rm -rf "$HOME_DIR"
python3 -c "import json, sys; h = json.load(open(sys.argv[1])); print(sys.argv[1], len(h['log']['entries']), 'entries')" "$OUT"
