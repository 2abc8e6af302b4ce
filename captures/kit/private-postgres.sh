# A private, new PostgreSQL cluster for one application's start.sh, sourced after start-steps.sh:
#   start_private_postgres NAME PORT HOME_DIR DATABASE [TEMPLATE_TAR]
# makes the cluster in HOME_DIR/pg (an old one is removed; under /tmp when the postgres user cannot
# reach HOME_DIR), listening on 127.0.0.1 at PORT+2 (or a free port when that one is taken) with
# trust authentication, loopback only, creates DATABASE, and sets PG_BIN, PG_PORT, CLUSTER and
# HOME_DIR (made absolute). On exit the cluster is stopped and deleted; SIGINT/SIGTERM stop the app
# (stop_app_on_signal). The PostgreSQL binaries (initdb, pg_ctl, createdb, PostgreSQL 15; on PATH or
# in /usr/lib/postgresql/*/bin) refuse to run as root: as root they run as the `postgres` user
# (runuser), which then must be able to enter HOME_DIR.
# TEMPLATE_TAR, when given and present: the cluster's data directory is unpacked from it (a cluster
# keep_cluster_in_template packed after slow migrations and a seed) instead of initdb and createdb.

pg_bin_dir() {
  local real
  if command -v initdb >/dev/null 2>&1; then
    real="$(dirname "$(readlink -f "$(command -v initdb)")")"
    [ -x "$real/pg_ctl" ] && [ -x "$real/createdb" ] && { echo "$real"; return 0; }
  fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r | head -1
}

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

PG_STARTED=""
stop_cluster() {
  if [ -n "$PG_STARTED" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -m fast -w stop >/dev/null 2>&1 || true
    PG_STARTED=""
  fi
  [ -n "${CLUSTER:-}" ] && rm -rf "$CLUSTER"
}

start_private_postgres() {
  local name="$1" port="$2" database="$4"
  HOME_DIR="$3"
  PG_BIN="$(pg_bin_dir)"
  [ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL server binaries (initdb, pg_ctl) not found" >&2; exit 1; }
  PG_PORT=$((port + 2))
  if (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; then PG_PORT="$(free_port)"; fi
  mkdir -p "$HOME_DIR"
  HOME_DIR="$(cd "$HOME_DIR" && pwd)"
  CLUSTER="$HOME_DIR/pg"
  rm -rf "$CLUSTER"
  if [ "$(id -u)" = 0 ]; then
    chmod a+x "$HOME_DIR"  # the postgres user enters it (and nothing more) to reach its cluster
    if ! runuser -u postgres -- test -x "$HOME_DIR"; then
      # A directory above HOME_DIR is closed to the postgres user (pytest's tmp_path is): the cluster
      # goes into a private directory of its own under /tmp instead, removed on stop all the same.
      CLUSTER="$(mktemp -d "/tmp/$name-pg.XXXXXX")"
      chmod 700 "$CLUSTER"
    fi
  fi
  mkdir -p -m 700 "$CLUSTER"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$CLUSTER"; fi
  trap stop_cluster EXIT
  stop_app_on_signal
  local template="${5:-}"
  if [ -n "$template" ] && [ -f "$template" ]; then
    tar -xf "$template" -C "$CLUSTER"
    if [ "$(id -u)" = 0 ]; then chown -R postgres: "$CLUSTER/data"; fi
    chmod 700 "$CLUSTER/data"
    PG_STARTED=1
    start_cluster
  else
    as_pg "$PG_BIN/initdb" -D "$CLUSTER/data" -U postgres --auth=trust --encoding=UTF8 --locale=C \
      >"$CLUSTER/initdb.log" 2>&1 || { cat "$CLUSTER/initdb.log" >&2; exit 1; }
    PG_STARTED=1
    start_cluster
    as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$database"
  fi
}

start_cluster() {
  as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $CLUSTER -c fsync=off -c synchronous_commit=off" start \
    >/dev/null || { cat "$CLUSTER/server.log" >&2; exit 1; }
}

# keep_cluster_in_template TEMPLATE_TAR: stop the cluster cleanly, pack its data directory into
# TEMPLATE_TAR (written under another name, then renamed: a start unpacking it at the same time
# never reads half of it) and start it again on the same port. The application's open
# connections break: it must open a new one per request (Django's CONN_MAX_AGE = 0).
keep_cluster_in_template() {
  local template="$1"
  mkdir -p "$(dirname "$template")"
  as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -m fast -w stop >/dev/null
  tar -cf "$template.$$" -C "$CLUSTER" data
  mv "$template.$$" "$template"
  start_cluster
}
