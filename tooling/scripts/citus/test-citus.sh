#!/usr/bin/env bash
# `pnpm test:citus`: the schema and the API on a real Citus cluster (DESIGN §9). Not part of
# `npm test`: Citus is built from a source tree given as CITUS_SRC (the citusdata/citus
# repository at a v13.2 tag), which CI cannot fetch.
#
#   1. build-citus.sh   builds and installs Citus unless it is installed
#   2. with-citus.sh    a coordinator and two workers on loopback, for the steps below
#   3. migrate          `brand migrate` on the coordinator, as the app's role
#   4. distribute       `brand citus-ddl` into psql: every global table a reference table,
#                       every tenant table distributed by brand_id; fails if any statement fails
#   5. serve            `brand demo` (a brand with catalog, customers, channels, portals, orders
#                       placed with stock reservations, through the use cases), then the API
#                       on the coordinator, as the app's role (row-level security on), answers
#                       the demo's token with rows on a list of every kind the demo fills
#   6. suites           every test suite with TEST_DIALECTS=postgres against the coordinator:
#                       each test database is made on every node (citus-test-databases.ts);
#                       extra arguments go to jest (a path runs part of them)
#   7. the last line:   the tables distributed, the lists answered, the suites' counts
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
scripts=tooling/scripts
source "$scripts/node-runtime.sh"
log() { printf '[test-citus] %s\n' "$*" >&2; }

if [ -z "${BRAND_CITUS_INNER:-}" ]; then
  bash "$scripts/citus/build-citus.sh"
  pnpm run build >&2
  BRAND_CITUS_INNER=1 exec bash "$scripts/citus/with-citus.sh" bash "$0" "$@"
fi

# CITUS_AS=superuser serves as the superuser, whom row-level security does not bind: the
# diagnosis of a run whose policies refuse rows on the workers (see docs/scale-out.md).
app_url="$TEST_POSTGRES_URL"
if [ "${CITUS_AS:-}" = "superuser" ]; then app_url="$TEST_POSTGRES_ADMIN_URL"; fi
cli() { DATABASE_URL="$app_url" node apps/api/dist/cli/main.js "$@"; }
admin_psql() { "$PG_BINDIR/psql" "$TEST_POSTGRES_ADMIN_URL" -v ON_ERROR_STOP=1 -qAt "$@"; }

log "migrate"
cli migrate >&2
log "distribute"
cli citus-ddl > "${TMPDIR:-/tmp}/citus-ddl.sql"
admin_psql -f "${TMPDIR:-/tmp}/citus-ddl.sql" >/dev/null
distributed="$(admin_psql -c "select count(*) from pg_dist_partition where partmethod = 'h'")"
reference="$(admin_psql -c "select count(*) from pg_dist_partition where partmethod = 'n'")"
tenant="$(admin_psql -c "select count(distinct table_name) from information_schema.columns where table_schema = 'public' and column_name = 'brand_id' and table_name <> 'brand_lookups'")"
log "distributed $distributed of $tenant tenant tables; $reference reference tables"
[ "$distributed" = "$tenant" ] || { log "not every tenant table is distributed"; exit 1; }

log "demo data through the use cases"
demo="$(cli demo --json)"
token="$(node -e 'const d=JSON.parse(process.argv[1]);console.log(d.access_token)' "$demo")"
app_key="$(node -e 'const d=JSON.parse(process.argv[1]);console.log(d.app_key)' "$demo")"

port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});')"
DATABASE_URL="$app_url" PORT="$port" WEB_CONCURRENCY=1 LOG_LEVEL=warn node apps/api/dist/server.js &
server=$!
stop_server() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap stop_server EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done

# Every list the demo fills must come back with rows: a 200 with an empty page is what a policy
# that refused every row on the workers would answer too.
answered=0
for path in /v10/products /v10/variants /v10/customers /v10/orders /v10/order-channels /v10/suppliers /v10/inventory-available /v10/events; do
  body="$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $token" -H "X-Service-App-Key: $app_key" "http://127.0.0.1:$port$path?limit=5")"
  status="${body##*$'\n'}"
  items="$(node -e 'const b=JSON.parse(process.argv[1]);const k=Object.keys(b).find((k)=>Array.isArray(b[k]));console.log(k?b[k].length:0)' "${body%$'\n'*}" 2>/dev/null || echo 0)"
  log "GET $path → $status, $items rows"
  [ "$status" = "200" ] && [ "$items" -gt 0 ] || { log "the API did not answer $path with the demo's rows"; exit 1; }
  answered=$((answered + 1))
done
stop_server
trap - EXIT

log "the Postgres test suites on the cluster (each test database made on every node)"
results="${TMPDIR:-/tmp}/citus-jest.json"
suites=0
TEST_DIALECTS=postgres pnpm exec jest --ci --passWithNoTests --maxWorkers="${JEST_WORKERS:-2}" \
  --json --outputFile="$results" "$@" || suites=$?
counts="$(node -e 'const r=require(process.argv[1]);console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped in ${r.numTotalTestSuites} suites`)' "$results")"
echo "citus: $distributed of $tenant tenant tables distributed, $reference reference tables; the API answered $answered of $answered lists with rows as $([ "${CITUS_AS:-}" = superuser ] && echo the superuser || echo brand_app); suites: $counts"
exit "$suites"
