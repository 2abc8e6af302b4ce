#!/usr/bin/env bash
# Start OctoPrint 1.11.8 FRESH: a new basedir with a config.yaml written here (first run done,
# access control on, a fixed throwaway global API key, the virtual printer on, every plugin that
# would reach the network or nag switched off), an admin user made by `octoprint user add`, then
# `octoprint serve` on 127.0.0.1:PORT, seeded through the API by seed.sh (not recorded).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port OctoPrint listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the basedir is made (default: mktemp -d); an old basedir there is replaced
# Env:  VENV  virtualenv with OctoPrint==1.11.8 installed (required)
# Prints "octoprint READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# --iknowwhatimdoing: OctoPrint refuses to run as root without it (CI runs as root).
# Every API call sends the global API key below in X-Api-Key (OctoPrint logs that the global key
# is deprecated; 1.11 still takes it and acts as an admin).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with OctoPrint==1.11.8 installed}"
API_KEY=capenv-octoprint-throwaway-api-key-0001
BASE="$HOME_DIR/octoprint"

refuse_taken_port "$PORT"
# Sets (a user's and a group's needs.role) list in hash order: one order on every start.
export PYTHONHASHSEED=0
mkdir -p "$HOME_DIR"
rm -rf "$BASE"
mkdir -p "$BASE"
cat >"$BASE/config.yaml" <<YAML
api:
  key: $API_KEY
server:
  firstRun: false
  secretKey: capenv-octoprint-throwaway-secret-key-0001
  onlineCheck:
    enabled: false
  pluginBlacklist:
    enabled: false
  seenWizards:
    corewizard: 4
  # Links (a profile's resource, a file's refs) name this host whatever PORT is and whichever proxy
  # is in front: the host header OctoPrint reads is one nobody sends, so it always falls back.
  reverseProxy:
    hostHeader: X-Capenv-Never-Sent
    hostFallback: octoprint.capenv.test
plugins:
  _disabled:
    - announcements
    - tracking
    - softwareupdate
    - pluginmanager
    - discovery
    - errortracking
    - achievements
    - backup
    - health_check
    - firmware_check
    - file_check
    - pi_support
    - gcodeviewer
    - classicwebcam
  virtual_printer:
    enabled: true
    okAfterResend: false
# Relative to the basedir (OctoPrint runs there): the settings document shows them as written, so
# recorded and live answers name the same folders whatever HOME_DIR is.
folder:
  uploads: uploads
  timelapse: timelapse
  watched: watched
YAML
# A one-file plugin fixing what psutil.disk_usage answers (file listings show the uploads folder's
# disk as free and total bytes): the machine's disk changes with whatever else it writes, so
# recorded and live answers agree only on fixed numbers, as on the fixed link host above.
mkdir -p "$BASE/plugins"
cat >"$BASE/plugins/capenv_fixed_disk.py" <<'PLUGIN'
import psutil

_FIXED = psutil._common.sdiskusage(total=107374182400, used=53687091200, free=53687091200, percent=50.0)


def _disk_usage(path):
    return _FIXED


psutil.disk_usage = _disk_usage
__plugin_name__ = "capenv fixed disk usage"
__plugin_pythoncompat__ = ">=3.7,<4"
PLUGIN
# The admin (its password a throwaway; nothing logs in with it, the API key is the credential).
"$VENV/bin/octoprint" --basedir "$BASE" user add --password capenv-octoprint-throwaway --admin admin \
  </dev/null >/dev/null 2>&1

stop_app_on_signal
(cd "$BASE" && exec "$VENV/bin/octoprint" --basedir "$BASE" serve --iknowwhatimdoing --host 127.0.0.1 --port "$PORT") >"$HOME_DIR/octoprint.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "octoprint did not come up on $PORT" \
  -H "X-Api-Key: $API_KEY" "http://127.0.0.1:$PORT/api/version"
seed_or_stop "$HERE/seed.sh" "http://127.0.0.1:$PORT" "$API_KEY"
echo "octoprint READY on $PORT"
wait "$APP_PID"
