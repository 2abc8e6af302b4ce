#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store tests.
#
#   eval "$(bash .ci/postgres.sh)"        # start; exports CAPENV_TEST_POSTGRES_URL
#   bash .ci/postgres.sh stop             # stop it and delete its data
#
# Listens on 127.0.0.1 only, on port $CAPENV_PG_PORT (default 54329, or the next free one), with
# trust authentication (loopback only, test data only) and a database `capenv_test`. Only the
# export line goes to stdout, so the output can be eval'ed; progress goes to stderr.
# The server binaries refuse to run as root: as root they run as the `postgres` user.
# If initdb is missing and apt-get exists, Debian's `postgresql` package is installed.
set -euo pipefail

STATE_FILE="${CAPENV_PG_STATE:-${TMPDIR:-/tmp}/capenv-test-postgres.state}"
DATABASE=capenv_test

log() { echo "postgres.sh: $*" >&2; }

find_bin_dir() {
    # initdb on PATH may be a lone symlink (e.g. /usr/local/bin/initdb): the directory it points
    # into holds the other binaries (createdb, pg_ctl, postgres) of the same version.
    if command -v initdb >/dev/null 2>&1; then
        local real
        real="$(dirname "$(readlink -f "$(command -v initdb)")")"
        if [ -x "$real/pg_ctl" ] && [ -x "$real/createdb" ]; then
            echo "$real"
            return 0
        fi
    fi
    local candidate
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$candidate/initdb" ]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

ensure_binaries() {
    if BIN_DIR="$(find_bin_dir)"; then
        return 0
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        log "initdb not found and apt-get is not available: install PostgreSQL server binaries"
        exit 1
    fi
    log "installing Debian's postgresql package"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN_DIR="$(find_bin_dir)" || { log "postgresql installed but initdb still not found"; exit 1; }
}

# Run a server binary as the postgres user when we are root (initdb and postgres refuse root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

url_for() { echo "postgresql://postgres@127.0.0.1:$1/$DATABASE"; }

start() {
    if [ -f "$STATE_FILE" ]; then
        # shellcheck disable=SC1090
        . "$STATE_FILE"
        if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] && as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; then
            log "already running on port $PG_PORT"
            echo "export CAPENV_TEST_POSTGRES_URL=$(url_for "$PG_PORT")"
            return 0
        fi
        # Recorded but no longer running (e.g. the session that started it has ended).
        [ -n "${PG_DIR:-}" ] && rm -rf "$PG_DIR"
        rm -f "$STATE_FILE"
    fi
    ensure_binaries
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi

    local port="${CAPENV_PG_PORT:-54329}"
    while port_in_use "$port"; do
        port=$((port + 1))
    done

    local dir
    dir="$(mktemp -d "${TMPDIR:-/tmp}/capenv-pg.XXXXXX")"
    chmod 700 "$dir"
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$dir"
    fi
    log "initdb in $dir (binaries from $BIN_DIR)"
    as_pg "$BIN_DIR/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # Loopback only; the Unix socket goes into the private directory, not /var/run/postgresql.
    as_pg "$BIN_DIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 -c fsync=off" start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
    if ! as_pg "$BIN_DIR/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DATABASE"; then
        as_pg "$BIN_DIR/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
        rm -rf "$dir"
        exit 1
    fi
    printf 'PG_DIR=%q\nPG_BIN=%q\nPG_PORT=%q\n' "$dir" "$BIN_DIR" "$port" >"$STATE_FILE"
    log "running on 127.0.0.1:$port (data in $dir)"
    echo "export CAPENV_TEST_POSTGRES_URL=$(url_for "$port")"
}

stop() {
    if [ ! -f "$STATE_FILE" ]; then
        log "no cluster recorded in $STATE_FILE"
        return 0
    fi
    # shellcheck disable=SC1090
    . "$STATE_FILE"
    if [ -d "$PG_DIR/data" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$PG_DIR"
    rm -f "$STATE_FILE"
    log "stopped and removed $PG_DIR"
}

case "${1:-start}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac
