#!/usr/bin/env bash
# Start Home Assistant 2024.3.3 (home automation core, aiohttp) FRESH on a new configuration
# directory, then seed it through its REST API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port its http integration listens on (127.0.0.1); refused when taken
#   HOME_DIR  its configuration directory (default: mktemp -d): configuration.yaml, .storage/auth
#             (old ones removed), and what Home Assistant writes at run time (.storage, the log)
# Env:  VENV  virtualenv with homeassistant==2024.3.3 and the frontend's requirements installed
#             (.ci/live-apps.sh; required)
# Prints "homeassistant READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# configuration.yaml holds `http:` on loopback and PORT, `api:`, two input_booleans and a counter
# (no `default_config`); `hass --skip-pip` never installs a package at run time. .storage/auth holds
# one owner user and one long-lived access token whose throwaway jwt_key signs token.txt (valid until
# 2031), so every start accepts the same Bearer token without onboarding. Up in ~2-4 s; the seed
# (seed.py, directly on the app port, never through the recording proxy) puts the configured
# entities' states in a fixed order (their integrations start concurrently) and sets three states.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with homeassistant==2024.3.3 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/.storage" "$HOME_DIR"/home-assistant.log* "$HOME_DIR/.HA_VERSION"
mkdir -p "$HOME_DIR/.storage"
cat >"$HOME_DIR/configuration.yaml" <<YAML
homeassistant:
  name: Capenv Home
  latitude: 52.37
  longitude: 4.89
  elevation: 2
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: NL
http:
  server_host: 127.0.0.1
  server_port: $PORT
api:
input_boolean:
  porch_light:
    name: Porch light
  guest_mode:
    name: Guest mode
    initial: true
counter:
  door_openings:
    name: Door openings
    initial: 3
    step: 1
YAML
cat >"$HOME_DIR/.storage/auth" <<'JSON'
{"version": 1, "minor_version": 1, "key": "auth", "data": {
 "users": [{"id": "a11ce000a11ce000a11ce000a11ce001", "group_ids": ["system-admin"], "is_owner": true,
            "is_active": true, "name": "Capenv Owner", "system_generated": false, "local_only": false}],
 "groups": [{"id": "system-admin", "name": "Administrators"}, {"id": "system-users", "name": "Users"},
            {"id": "system-read-only", "name": "Read Only"}],
 "credentials": [],
 "refresh_tokens": [{"id": "c0ffee00c0ffee00c0ffee00c0ffee01", "user_id": "a11ce000a11ce000a11ce000a11ce001",
   "client_id": null, "client_name": "capenv", "client_icon": null, "token_type": "long_lived_access_token",
   "created_at": "2025-12-01T00:00:00+00:00", "access_token_expiration": 189302400.0,
   "token": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
   "jwt_key": "capenv-throwaway-jwt-key-0123456789abcdef0123456789abcdef0123456789abcdef",
   "last_used_at": null, "last_used_ip": null, "expire_at": null, "credential_id": null, "version": "2024.3.3"}]
}}
JSON

stop_app_on_signal
# A fixed hash seed: /api/config lists the loaded components from a set, in hash order.
export PYTHONHASHSEED=0
# Its configuration directory named /proc/self/cwd (the process's own working directory, HOME_DIR): the
# path /api/config answers (config_dir, allowlist_external_dirs) is then the same at every start and no
# machine path reaches an answer.
cd "$HOME_DIR"
"$VENV/bin/hass" --skip-pip -c /proc/self/cwd >"$HOME_DIR/hass.out" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "homeassistant did not come up on $PORT" \
  -H "Authorization: Bearer $(cat "$HERE/token.txt")" "http://127.0.0.1:$PORT/api/"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$(cat "$HERE/token.txt")"
echo "homeassistant READY on $PORT"
wait "$APP_PID"
