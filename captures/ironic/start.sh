#!/usr/bin/env bash
# Start OpenStack Ironic 39.0.0 standalone FRESH on a new home directory (SQLite), then seed it
# (seed.py: fixed uuids).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the API listens on (127.0.0.1); refused when taken
#   HOME_DIR  where ironic.conf and ironic.db are made (default: mktemp -d); an old database is replaced
# Env:  VENV  virtualenv with ironic==39.0.0 installed (required)
# Prints "ironic READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The all-in-one `ironic` command runs the API and the conductor in one service (rpc_transport =
# none: no message queue), auth_strategy = noauth (no Keystone, no token), only the fake-hardware
# hardware type with fake interfaces (nothing touches real hardware; no DHCP, noop networking).
# Links name the configured public_endpoint, http://localhost:6385 (Ironic's usual port), whatever
# PORT is.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with ironic==39.0.0 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR/locks"
rm -f "$HOME_DIR/ironic.db"
CFG="$HOME_DIR/ironic.conf"
cat >"$CFG" <<CFG
[DEFAULT]
auth_strategy = noauth
rpc_transport = none
host = capenv-conductor
use_stderr = true
enabled_hardware_types = fake-hardware
enabled_bios_interfaces = no-bios,fake
enabled_boot_interfaces = fake
enabled_console_interfaces = no-console,fake
enabled_deploy_interfaces = fake
enabled_firmware_interfaces = no-firmware,fake
enabled_inspect_interfaces = no-inspect,fake
enabled_management_interfaces = fake
enabled_network_interfaces = noop
enabled_power_interfaces = fake
enabled_raid_interfaces = no-raid,fake
enabled_rescue_interfaces = no-rescue,fake
enabled_storage_interfaces = noop
enabled_vendor_interfaces = no-vendor,fake
default_network_interface = noop
[api]
host_ip = 127.0.0.1
port = $PORT
public_endpoint = http://localhost:6385
[database]
connection = sqlite:///$HOME_DIR/ironic.db
[dhcp]
dhcp_provider = none
[conductor]
automated_clean = false
sync_power_state_interval = 0
[oslo_concurrency]
lock_path = $HOME_DIR/locks
CFG
"$VENV/bin/ironic-dbsync" --config-file "$CFG" create_schema >"$HOME_DIR/dbsync.log" 2>&1

stop_app_on_signal
"$VENV/bin/ironic" --config-file "$CFG" >"$HOME_DIR/ironic.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "ironic did not come up on $PORT" "http://127.0.0.1:$PORT/v1/drivers"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "ironic READY on $PORT"
wait "$APP_PID"
