#!/usr/bin/env bash
# Start FlexGet 3.22.8 FRESH: a new config directory with config.yml written here (the web server
# with its REST API on 127.0.0.1:PORT, no web UI, no schedules, so no task ever runs by itself),
# `flexget daemon start` in the foreground, then seed.py through the API (not recorded).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the web server listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the config directory is made (default: mktemp -d); an old one is replaced
# Env:  VENV  virtualenv with flexget==3.22.8 installed (required)
# Prints "flexget READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# Every API call sends `Authorization: Token <TOKEN>`: the daemon makes its user (flexget) with a
# random token on its first start; seed.py replaces it by the throwaway one below in the database.
# The tasks: movies-from-list and queue-from-entries are never run (no schedules); seed-history
# (mock entries, nothing fetched) is run once by seed.py so that seen and history hold entries.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with flexget==3.22.8 installed}"
TOKEN=capenv-flexget-throwaway-token-0001
CFG_DIR="$HOME_DIR/flexget"

refuse_taken_port "$PORT"
# Sets listed in answers (identifier names) in hash order: one order on every start.
export PYTHONHASHSEED=0
mkdir -p "$HOME_DIR"
rm -rf "$CFG_DIR"
mkdir -p "$CFG_DIR"
cat >"$CFG_DIR/config.yml" <<YAML
web_server:
  bind: 127.0.0.1
  port: $PORT
  web_ui: no
schedules: no
tasks:
  movies-from-list:
    movie_list: Watchlist
    accept_all: yes
  queue-from-entries:
    entry_list: downloads
    accept_all: yes
    list_add:
      - pending_list: approvals
  seed-history:
    mock:
      - {title: Example.Documentary.2019.1080p.WEB, url: "http://127.0.0.1:9/example-documentary"}
      - {title: Another.Film.2021.720p.BluRay, url: "http://127.0.0.1:9/another-film"}
      - {title: Third.Feature.2015.2160p.HDR, url: "http://127.0.0.1:9/third-feature"}
    accept_all: yes
YAML

stop_app_on_signal
(cd "$CFG_DIR" && exec "$VENV/bin/flexget" -c "$CFG_DIR/config.yml" --loglevel info daemon start) \
  >"$HOME_DIR/flexget.log" 2>&1 &
APP_PID=$!
# Up once the API answers (its Swagger page needs no token, which is not set yet).
wait_until_up 600 0.2 "flexget did not come up on $PORT" "http://127.0.0.1:$PORT/api/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT/api" "$TOKEN" "$CFG_DIR/db-config.sqlite"
echo "flexget READY on $PORT"
wait "$APP_PID"
