#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store tests, one per run: its data, log and state live in
# a directory of its own, so two runs at once never share (or delete) each other's cluster.
#
#   eval "$(bash .ci/postgres.sh start [DIR])"   # start; exports CAPENV_TEST_POSTGRES_URL and
#                                                # CAPENV_PG_STATE_DIR (DIR, default a new private
#                                                # directory under ${TMPDIR:-/tmp})
#   bash .ci/postgres.sh stop [DIR]              # stop that cluster and delete its data
#                                                # (default DIR: $CAPENV_PG_STATE_DIR)
#
# Starting again with the same DIR while its cluster runs reuses it. Listens on 127.0.0.1 only,
# on port $CAPENV_PG_PORT (default 54329, or the next free one), with trust authentication
# (loopback only, test data only) and a database `capenv_test`. Only the export line goes to
# stdout, so the output can be eval'ed; progress goes to stderr.
# The server binaries refuse to run as root: as root they run as the `postgres` user (which must
# be able to enter DIR).
# If initdb is missing and apt-get exists, Debian's `postgresql` package is installed.
set -euo pipefail

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

export_line() { printf 'export CAPENV_TEST_POSTGRES_URL=%q CAPENV_PG_STATE_DIR=%q\n' "$(url_for "$1")" "$STATE_DIR"; }

start() {
    if [ -n "${1:-}" ]; then
        STATE_DIR="$1"
        mkdir -p "$STATE_DIR"
    else
        STATE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/capenv-pg.XXXXXX")"
        touch "$STATE_DIR/.made-by-postgres.sh"  # stop deletes the whole directory
    fi
    STATE_DIR="$(cd "$STATE_DIR" && pwd)"
    local state_file="$STATE_DIR/state" cluster="$STATE_DIR/cluster"
    if [ -f "$state_file" ]; then
        # shellcheck disable=SC1090
        . "$state_file"
        if [ -d "$cluster/data" ] && as_pg "$PG_BIN/pg_ctl" -D "$cluster/data" status >/dev/null 2>&1; then
            log "already running on port $PG_PORT"
            export_line "$PG_PORT"
            return 0
        fi
        # Recorded but no longer running (e.g. the run that started it was killed).
        rm -rf "$cluster" "$state_file"
    fi
    ensure_binaries
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi

    local port="${CAPENV_PG_PORT:-54329}"
    while port_in_use "$port"; do
        port=$((port + 1))
    done

    mkdir -m 700 "$cluster"
    if [ "$(id -u)" = 0 ]; then
        chmod a+x "$STATE_DIR"  # the postgres user enters it (and nothing more) to reach its cluster
        chown postgres: "$cluster"
    fi
    log "initdb in $cluster (binaries from $BIN_DIR)"
    as_pg "$BIN_DIR/initdb" -D "$cluster/data" -U postgres --auth=trust --encoding=UTF8 --locale=C \
        >"$cluster/initdb.log" 2>&1 || { cat "$cluster/initdb.log" >&2; exit 1; }
    # Loopback only; the Unix socket goes into the private directory, not /var/run/postgresql.
    as_pg "$BIN_DIR/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $cluster -c max_connections=200 -c fsync=off" start >&2 \
        || { cat "$cluster/server.log" >&2; exit 1; }
    if ! as_pg "$BIN_DIR/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DATABASE"; then
        as_pg "$BIN_DIR/pg_ctl" -D "$cluster/data" -m fast -w stop >&2 || true
        rm -rf "$cluster"
        exit 1
    fi
    printf 'PG_BIN=%q\nPG_PORT=%q\n' "$BIN_DIR" "$port" >"$state_file"
    log "running on 127.0.0.1:$port (data in $cluster)"
    export_line "$port"
}

stop() {
    STATE_DIR="${1:-${CAPENV_PG_STATE_DIR:-}}"
    if [ -z "$STATE_DIR" ]; then
        log "which cluster? pass the directory start used, or set CAPENV_PG_STATE_DIR"
        exit 2
    fi
    local state_file="$STATE_DIR/state" cluster="$STATE_DIR/cluster"
    if [ ! -f "$state_file" ]; then
        log "no cluster recorded in $STATE_DIR"
        return 0
    fi
    # shellcheck disable=SC1090
    . "$state_file"
    if [ -d "$cluster/data" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$cluster/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$cluster" "$state_file"
    if [ -f "$STATE_DIR/.made-by-postgres.sh" ]; then
        rm -rf "$STATE_DIR"
    fi
    log "stopped and removed the cluster in $STATE_DIR"
}

case "${1:-start}" in
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    *) echo "usage: $0 [start [DIR] | stop [DIR]]" >&2; exit 2 ;;
esac
