#!/usr/bin/env bash
# Usage: with-citus.sh <command...>
#
# Runs <command> against a throwaway Citus cluster on loopback: a coordinator and two workers
# (PostgreSQL 15 with Citus, built by build-citus.sh), each in a temp dir, trust auth, stopped
# and deleted afterwards whatever happens. Like with-postgres.sh, the command gets
# TEST_POSTGRES_URL (the coordinator, as the role brand_app, neither superuser nor BYPASSRLS) and
# TEST_POSTGRES_ADMIN_URL (the superuser), CITUS_DATABASE: a database on the cluster with the
# extension in it on every node, and TEST_CITUS_WORKER_ADMIN_URLS: the workers, as their superuser
# (the test storages make each test database on every node: src/testing/citus-test-databases.ts).
# Not part of `npm test`: Citus is built from a source tree.
set -euo pipefail

log() { printf '[with-citus] %s\n' "$*" >&2; }
bindir="${PG_BINDIR:-/usr/lib/postgresql/15/bin}"
[ -f "$("$bindir/pg_config" --pkglibdir 2>/dev/null || echo /nonexistent)/citus.so" ] \
  || { log "Citus is not installed: run tooling/scripts/citus/build-citus.sh with CITUS_SRC first"; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
  as_pg() { runuser -u postgres -- "$@"; }
  tmp_parent=/tmp
else
  as_pg() { "$@"; }
  tmp_parent="${TMPDIR:-/tmp}"
fi
tmp="$(mktemp -d "${tmp_parent%/}/brand-citus.XXXXXX")"
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$tmp"; fi
nodes=(coordinator worker1 worker2)
declare -A ports=()
started=()

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for node in "${started[@]}"; do
    (cd "$tmp" && as_pg "$bindir/pg_ctl" -D "$tmp/$node" -m immediate -w -t 30 stop >/dev/null 2>&1) || true
  done
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'; }

for node in "${nodes[@]}"; do
  (cd "$tmp" && as_pg "$bindir/initdb" -D "$tmp/$node" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync >"$tmp/$node.initdb.log" 2>&1) \
    || { cat "$tmp/$node.initdb.log" >&2; exit 1; }
  mkdir -p "$tmp/$node-sock"; if [ "$(id -u)" -eq 0 ]; then chown postgres: "$tmp/$node-sock"; fi
  cat >>"$tmp/$node/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$tmp/$node-sock'
shared_preload_libraries = 'citus'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  ports[$node]="$(free_port)"
  (cd "$tmp" && as_pg "$bindir/pg_ctl" -D "$tmp/$node" -o "-p ${ports[$node]}" -l "$tmp/$node.log" -w -t 60 start >/dev/null) \
    || { tail -20 "$tmp/$node.log" >&2; exit 1; }
  started+=("$node")
  log "$node on port ${ports[$node]}"
done

database="${CITUS_DATABASE:-brand}"
psql_on() { local port="$1"; shift; (cd "$tmp" && as_pg "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"); }
for node in "${nodes[@]}"; do
  psql_on "${ports[$node]}" -d postgres -c "create role brand_app login createdb nosuperuser nobypassrls" >&2
  psql_on "${ports[$node]}" -d postgres -c "create database $database owner brand_app" >&2
  psql_on "${ports[$node]}" -d "$database" -c "create extension citus" >&2
  psql_on "${ports[$node]}" -d "$database" -c "grant all on schema public to brand_app" >&2
done
psql_on "${ports[coordinator]}" -d "$database" -c "select citus_set_coordinator_host('127.0.0.1', ${ports[coordinator]})" >&2
for worker in worker1 worker2; do
  psql_on "${ports[coordinator]}" -d "$database" -c "select citus_add_node('127.0.0.1', ${ports[$worker]})" >/dev/null
done
log "cluster ready: $(psql_on "${ports[coordinator]}" -d "$database" -c "select count(*) from citus_get_active_worker_nodes()") workers"

export CITUS_DATABASE="$database"
export TEST_POSTGRES_URL="postgres://brand_app@127.0.0.1:${ports[coordinator]}/$database"
export TEST_POSTGRES_ADMIN_URL="postgres://postgres@127.0.0.1:${ports[coordinator]}/$database"
export TEST_CITUS_WORKER_ADMIN_URLS="postgres://postgres@127.0.0.1:${ports[worker1]}/postgres,postgres://postgres@127.0.0.1:${ports[worker2]}/postgres"
export PG_BINDIR="$bindir"
set +e
"$@"
status=$?
set -e
exit "$status"
