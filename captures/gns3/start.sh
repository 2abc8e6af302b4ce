#!/usr/bin/env bash
# Start the GNS3 server 2.2.61 FRESH under a new home directory, then seed it through its REST API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gns3server (controller and local compute in one process) listens on
#             (127.0.0.1); refused when taken
#   HOME_DIR  the HOME of the server: its configuration, projects, images and the controller's
#             own file (templates, computes) are made under it (default: mktemp -d); an old one
#             there is replaced
# Env:  VENV  virtualenv with gns3-server==2.2.61 installed (required)
# Prints "gns3 READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# gns3_server.conf (below) binds loopback, turns HTTP auth off, keeps every path under HOME_DIR and
# turns the update check and the GNS3 VM off, so nothing reaches outside at run time. Only built-in
# node types that need no emulator binary are used (ethernet_switch, ethernet_hub, cloud).
# The seed (seed.py) runs directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with gns3-server==2.2.61 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/gns3"
CONF_DIR="$HOME_DIR/gns3/.config/GNS3/2.2"
mkdir -p "$CONF_DIR" "$HOME_DIR/gns3/projects" "$HOME_DIR/gns3/images" "$HOME_DIR/gns3/appliances" \
  "$HOME_DIR/gns3/symbols" "$HOME_DIR/gns3/configs"
cat >"$CONF_DIR/gns3_server.conf" <<CONF
[Server]
host = 127.0.0.1
port = $PORT
auth = False
projects_path = projects
images_path = images
appliances_path = appliances
symbols_path = symbols
configs_path = configs
report_errors = False
CONF

# QEMU nodes are the only ones that need no helper binary to be made (ethernet switches and hubs are
# Dynamips devices, clouds need uBridge, NAT libvirt): Debian's qemu-system-x86 and qemu-utils
# unpacked into $VENV/qemu (.ci/live-apps.sh), never run (no node is started, no node has a disk),
# found through PATH as bin/qemu-system-x86_64 so that what the API answers (a node's qemu_path, a
# project's path: relative, the server runs in HOME_DIR/gns3) names no directory of this machine.
# (A duplicated project alone gets an absolute path, and cannot then be deleted: 409.)
[ -x "$VENV/qemu/usr/bin/qemu-system-x86_64" ] && [ -x "$VENV/qemu/usr/bin/qemu-img" ] \
  || { echo "QEMU is not unpacked in $VENV/qemu: bash .ci/live-apps.sh install" >&2; exit 1; }
mkdir -p "$HOME_DIR/gns3/bin"
for binary in qemu-system-x86_64 qemu-img; do  # qemu-img: looked for beside it when a node is deleted
  ln -s "$VENV/qemu/usr/bin/$binary" "$HOME_DIR/gns3/bin/$binary"
done

stop_app_on_signal
cd "$HOME_DIR/gns3"
PATH="bin:$PATH" HOME="$HOME_DIR/gns3" XDG_CONFIG_HOME="$HOME_DIR/gns3/.config" "$VENV/bin/gns3server" \
  --config "$CONF_DIR/gns3_server.conf" --host 127.0.0.1 --port "$PORT" --local \
  >"$HOME_DIR/gns3server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "the GNS3 server did not come up on $PORT" "http://127.0.0.1:$PORT/v2/version"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "gns3 READY on $PORT"
wait "$APP_PID"
