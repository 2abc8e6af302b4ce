# The steps the captures' start.sh scripts share; sourced, not run:
#   . "$HERE/../kit/start-steps.sh"
# A start.sh refuses a taken PORT, prepares its home, puts the application in the background with
# its pid in APP_PID, waits until it answers, seeds it, prints "<app> READY on <port>" and waits on
# APP_PID; on SIGINT/SIGTERM it stops the application and exits 0.

# refuse_taken_port PORT: exit 1 when something already listens on 127.0.0.1:PORT.
refuse_taken_port() {
  if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
    echo "port $1 is already in use" >&2; exit 1
  fi
}

# free_port: print a loopback port nothing listens on now, drawn below the system's ephemeral range
# (ports a bind to port 0 or an outgoing connection takes come from that range, so no other process
# running meanwhile is handed it); the system picks one if none there is free.
free_port() {
  python3 - <<'PY'
import random, socket
try:
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except (OSError, ValueError, IndexError):
    low = 32768
for port in random.sample(range(20000, low), min(50, max(low - 20000, 0))) + [0]:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    print(s.getsockname()[1])
    break
PY
}

# The application's pid, set by the start.sh right after it puts the application in the background.
APP_PID=""
stop_app() { [ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null; exit 0; }

# stop_app_on_signal: from here on SIGINT/SIGTERM stop the application (set this before starting it).
stop_app_on_signal() { trap stop_app INT TERM; }

# fail_and_stop MESSAGE: say why, stop the application and exit 1.
fail_and_stop() { echo "$1" >&2; kill -TERM "$APP_PID" 2>/dev/null; exit 1; }

# wait_until_up TRIES PAUSE FAILURE CURL_ARGS...: poll `curl -sf CURL_ARGS` every PAUSE seconds
# until it succeeds; when the application exits first or TRIES polls fail, fail_and_stop FAILURE.
wait_until_up() {
  local tries="$1" pause="$2" failure="$3" i
  shift 3
  for i in $(seq 1 "$tries"); do
    curl -sf -o /dev/null "$@" && return 0
    kill -0 "$APP_PID" 2>/dev/null || break
    sleep "$pause"
  done
  fail_and_stop "$failure"
}

# seed_or_stop COMMAND...: run the seed; when it fails, fail_and_stop.
seed_or_stop() { "$@" || fail_and_stop "seeding failed"; }

# keep_in_template FILE DIR: copy FILE into DIR (made when missing) under the same name, by a
# rename, so that a start copying DIR's file at the same time never reads half of it.
keep_in_template() {
  local name
  name="$(basename "$1")"
  mkdir -p "$2"
  cp "$1" "$2/$name.$$"
  mv "$2/$name.$$" "$2/$name"
}
