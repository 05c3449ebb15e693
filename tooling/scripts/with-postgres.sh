#!/usr/bin/env bash
# Usage: with-postgres.sh <command...>
#
# Runs <command> with TEST_POSTGRES_URL pointing at a throwaway PostgreSQL server that
# lives in a temp dir, listens on 127.0.0.1 only (free port, trust auth) and is stopped and
# deleted afterwards, whatever happens. Exits with the command's exit code.
# If TEST_POSTGRES_URL is already set, that server is used and nothing is started.
# POSTGRES_STATEMENT_STATS=1 loads pg_stat_statements (for a bench that counts what each side
# sends: `create extension pg_stat_statements` as the admin, then read the view).
# POSTGRES_VIA_SOCKET=1 hands out URLs that connect through the server's unix socket instead of
# 127.0.0.1 (the test command does; benchmarks keep TCP, as a deployment has it).
# POSTGRES_EXTRA_CONF is appended to postgresql.conf (e.g. auto_explain's settings, to see the
# plans of slow statements); TEST_POSTGRES_LOG names the server's log while the command runs.
set -euo pipefail

log() { printf '[with-postgres] %s\n' "$*" >&2; }

if [ "$#" -eq 0 ]; then
  echo "usage: $(basename "$0") <command...>" >&2
  exit 2
fi

if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  log "TEST_POSTGRES_URL already set; using it (connect as a role that is neither superuser nor BYPASSRLS, or row-level security is not exercised)"
  exec "$@"
fi

# --- find the server binaries (initdb, pg_ctl) -------------------------------------------
# Debian keeps them off PATH in /usr/lib/postgresql/<major>/bin; take the newest major.
# PG_BINDIR overrides the search.
find_bindir() {
  local d
  if [ -n "${PG_BINDIR:-}" ] && [ -x "${PG_BINDIR}/initdb" ]; then
    echo "$PG_BINDIR"; return 0
  fi
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"; return 0
  fi
  return 1
}

if ! bindir="$(find_bindir)"; then
  log "no PostgreSQL binaries found; installing Debian's postgresql package"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
  bindir="$(find_bindir)" || { log "PostgreSQL binaries still not found after install"; exit 1; }
fi

# --- who runs the server -------------------------------------------------------------------
# initdb and postgres refuse to run as root, so as root run them as the `postgres` user
# (created by Debian's package). As any other user, run them as that user.
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh postgres
  if command -v runuser >/dev/null 2>&1; then
    as_pg() { runuser -u postgres -- "$@"; }
  else
    as_pg() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
  fi
  # The postgres user must be able to reach the temp dir: /tmp, not a private $TMPDIR.
  tmp_parent=/tmp
else
  as_pg() { "$@"; }
  tmp_parent="${TMPDIR:-/tmp}"
fi

# Short path on purpose: the unix socket path must stay under ~100 characters.
tmp="$(mktemp -d "${tmp_parent%/}/brand-pg.XXXXXX")"
datadir="$tmp/data"
started=""

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "$started" ]; then
    log "stopping server"
    # immediate: the data is thrown away anyway, no need for a clean checkpoint.
    (cd "$tmp" && as_pg "$bindir/pg_ctl" -D "$datadir" -m immediate -w -t 30 stop >/dev/null 2>&1) \
      || log "pg_ctl stop failed (see $tmp/postgres.log)"
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
# On a signal: pass it on to the command (if running), let it finish, then exit with the
# conventional 128+N code; the EXIT trap then stops the server.
child=""
on_signal() {
  if [ -n "$child" ]; then
    kill -"$1" "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  exit "$2"
}
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM

if [ "$(id -u)" -eq 0 ]; then chown postgres: "$tmp"; fi
mkdir -p "$tmp/sock"
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$tmp/sock"; fi

# A free loopback port: bind port 0 and read back what the kernel picked. There is a small
# race before postgres binds it, hence the retry loop below.
free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
}

log "initdb ($bindir)"
# cd into the temp dir: the postgres user may not be allowed into the caller's cwd.
(cd "$tmp" && as_pg "$bindir/initdb" -D "$datadir" -U postgres --auth=trust \
  --encoding=UTF8 --locale=C --no-sync >"$tmp/initdb.log" 2>&1) \
  || { cat "$tmp/initdb.log" >&2; log "initdb failed"; exit 1; }

# Throwaway server: no durability, enough connections for parallel jest workers, local only.
cat >>"$datadir/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$tmp/sock'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
if [ -n "${POSTGRES_EXTRA_CONF:-}" ]; then printf '%s\n' "$POSTGRES_EXTRA_CONF" >>"$datadir/postgresql.conf"; fi
if [ "${POSTGRES_STATEMENT_STATS:-}" = 1 ]; then
  printf "shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\npg_stat_statements.track_planning = on\n" >>"$datadir/postgresql.conf"
fi

port=""
for attempt in 1 2 3 4 5; do
  candidate="$(free_port)"
  if (cd "$tmp" && as_pg "$bindir/pg_ctl" -D "$datadir" -o "-p $candidate" \
        -l "$tmp/postgres.log" -w -t 60 start >/dev/null 2>&1); then
    port="$candidate"
    started=1
    break
  fi
  log "start on port $candidate failed (attempt $attempt); retrying"
  # pg_ctl may have left a half-started server behind; make sure it is gone.
  (cd "$tmp" && as_pg "$bindir/pg_ctl" -D "$datadir" -m immediate -w stop >/dev/null 2>&1) || true
done
if [ -z "$port" ]; then
  tail -n 30 "$tmp/postgres.log" >&2 || true
  log "could not start PostgreSQL"
  exit 1
fi

# initdb -U postgres already made `postgres` the superuser and `postgres` the database. The
# project connects as `brand_app`, as a deployment should (DESIGN §9): it owns the tables it
# migrates but is neither superuser nor BYPASSRLS, so the forced row-level security binds it.
# CREATEDB lets the tests make their databases. Tests that inspect every brand's rows at once
# (snapshots, plans) connect as the superuser, through TEST_POSTGRES_ADMIN_URL.
(cd "$tmp" && as_pg "$bindir/psql" -h "$tmp/sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
  -c "create role brand_app login createdb nosuperuser nobypassrls") >&2 \
  || { log "could not create the brand_app role"; exit 1; }
if [ "${POSTGRES_VIA_SOCKET:-}" = 1 ]; then
  # The unix socket: each statement costs the client and the server less than over loopback TCP,
  # which a test run of many statements feels (docs/performance.md, "Suite time").
  export TEST_POSTGRES_URL="postgres://brand_app@localhost:${port}/postgres?host=$tmp/sock"
  export TEST_POSTGRES_ADMIN_URL="postgres://postgres@localhost:${port}/postgres?host=$tmp/sock"
else
  export TEST_POSTGRES_URL="postgres://brand_app@127.0.0.1:${port}/postgres"
  export TEST_POSTGRES_ADMIN_URL="postgres://postgres@127.0.0.1:${port}/postgres"
fi
# Tests that must stop and start a server of their own (restart under load) find the binaries here.
export PG_BINDIR="$bindir"
export TEST_POSTGRES_LOG="$tmp/postgres.log"
log "server ready at $TEST_POSTGRES_URL"

# Not exec: the EXIT trap has to run after the command to stop the server. Run it in the
# background and `wait`, so a signal sent to this script is handled at once instead of
# after the command ends; `<&0` keeps our stdin (background jobs get /dev/null otherwise).
set +e
"$@" <&0 &
child=$!
wait "$child"
status=$?
set -e
exit "$status"
