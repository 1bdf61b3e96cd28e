#!/usr/bin/env bash
# A private PostgreSQL server for Darkroom's tests, never the system's cluster.
#
#   scripts/postgres-test-server.sh start [holder-pid]   starts it (or reuses it) and prints its URL
#   scripts/postgres-test-server.sh release <holder-pid> forgets a holder; stops the server when none is left
#   scripts/postgres-test-server.sh stop                 stops it, whoever holds it
#   scripts/postgres-test-server.sh url                  prints its URL
#
# Its data lives in $DARKROOM_PG_DATA (default /tmp/darkroom-postgres-<uid>), it listens on
# 127.0.0.1:$DARKROOM_PG_PORT (default 55432) and on a Unix socket in the data folder, with trust
# authentication for the user `postgres`. Durability is off (fsync, synchronous_commit): it is for tests.
# Several test runs may share it: each `start` with a holder pid registers that process, and
# `release` stops the server only when no registered holder is still alive (a `start` without a
# holder pid holds it until `stop`).
# As root it runs PostgreSQL as the `postgres` system user (PostgreSQL refuses to run as root).
# Only the URL goes to stdout; everything else goes to stderr.
set -euo pipefail

port="${DARKROOM_PG_PORT:-55432}"
data="${DARKROOM_PG_DATA:-/tmp/darkroom-postgres-$(id -u)}"
holders="$data.holders"
url="postgres://postgres@127.0.0.1:$port/postgres"

say() { echo "postgres-test-server: $*" >&2; }
die() { say "$*"; exit 1; }

# The newest installed PostgreSQL (Debian keeps each major version in /usr/lib/postgresql/<major>/bin).
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
[ -n "$bin" ] && [ -x "$bin/pg_ctl" ] || die "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl): run scripts/setup.sh --tests"

# Runs a PostgreSQL program as the user that owns the cluster.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

is_running() { as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }

create_cluster() {
  say "creating a cluster in $data"
  rm -rf "$data"
  mkdir -p "$data"
  chmod 700 "$data"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "running as root needs the 'postgres' system user (installed by the postgresql package)"
    chown postgres:postgres "$data"
  fi
  as_owner "$bin/initdb" --pgdata="$data" --auth=trust --username=postgres --encoding=UTF8 --locale=C.UTF-8 \
    >"$data.initdb.log" 2>&1 || { cat "$data.initdb.log" >&2; die "initdb failed"; }
}

# Succeeds once the server accepts connections, trying for up to $1 seconds.
wait_ready() {
  local tries=$(( $1 * 2 ))
  while [ "$tries" -gt 0 ]; do
    pg_isready -q -h 127.0.0.1 -p "$port" -U postgres && return 0
    sleep 0.5
    tries=$(( tries - 1 ))
  done
  return 1
}

start() {
  # A server whose postmaster was just killed may still look alive for a moment: reuse only one that answers.
  if is_running && wait_ready 10; then
    say "reusing the server of $data"
    return 0
  fi
  [ -f "$data/PG_VERSION" ] || create_cluster
  say "starting PostgreSQL $(basename "$(dirname "$bin")") on 127.0.0.1:$port"
  as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='$data' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2 9>&- || { tail -20 "$data/server.log" >&2 || true; die "pg_ctl start failed (is port $port taken? set DARKROOM_PG_PORT)"; }
  wait_ready 30 || die "the server on 127.0.0.1:$port does not accept connections (see $data/server.log)"
}

stop() {
  if is_running; then
    say "stopping the server of $data"
    as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >&2 9>&-
  fi
  rm -rf "$holders"
}

# Removes holders whose process is gone; succeeds when some holder is still alive.
has_live_holders() {
  local alive=1 file
  for file in "$holders"/*; do
    [ -e "$file" ] || continue
    case "$(basename "$file")" in
      manual) alive=0 ;;
      *) if kill -0 "$(basename "$file")" 2>/dev/null; then alive=0; else rm -f "$file"; fi ;;
    esac
  done
  return $alive
}

# One command at a time, so that concurrent test runs neither create nor stop the cluster twice.
# (The server must not inherit this descriptor: pg_ctl runs with it closed.)
exec 9>"$data.lock"
flock 9

case "${1:-}" in
  start)
    start
    mkdir -p "$holders"
    touch "$holders/${2:-manual}"
    echo "$url"
    ;;
  release)
    [ -n "${2:-}" ] || die "usage: $0 release <holder-pid>"
    rm -f "$holders/$2"
    if has_live_holders; then say "still used by another test run: leaving it running"; else stop; fi
    ;;
  stop) stop ;;
  url) echo "$url" ;;
  *) die "usage: $0 start [holder-pid] | release <holder-pid> | stop | url" ;;
esac
