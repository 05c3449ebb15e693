#!/usr/bin/env bash
# Run all tests: `npm test` / `pnpm test` from the repo root (and `.ci/run` in CI).
#
#   1. setup.sh        install pnpm if missing, install dependencies (stop if that fails)
#   2. in the background: the static checks (typecheck, ESLint + dependency-cruiser, Biome's
#                      format check); they need no build and no database
#                      and ensure-chromium.sh (Debian's chromium for the browser tests,
#                      installed with apt-get when missing; waited for before jest)
#   3. in the background: the build (turbo) of every package the tests run, not the benchmarks,
#                      whose sources the typecheck covers; the test files that run the built
#                      output wait for it (tooling/config/jest-built-output.js)
#   4. with-postgres   a throwaway Postgres for the postgres dialect (skipped when
#                      TEST_POSTGRES_URL is set, or TEST_DIALECTS does not name postgres),
#                      and in it one jest run over every package (the root jest.config.js),
#                      one worker per core, capturing every statement sent to
#                      Postgres; then the statement check over them (one brand each)
#   5. the last line:  `N passed, N failed` (jest tests over all packages)
#
# Every step runs even if an earlier one failed, so one run reports everything; the exit
# code is non-zero if any step failed. Extra arguments are passed to jest,
# e.g. `npm test -- -t 'sync customers'`.
#
# Env: TEST_DIALECTS (default sqlite,postgres), TEST_POSTGRES_URL (use an existing server),
#      JEST_WORKERS (default: the number of cores).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
scripts=tooling/scripts

# Seconds since the outer run began, on every line: where a run's time goes, read off its log.
export BRAND_TEST_STARTED="${BRAND_TEST_STARTED:-$(date +%s)}"
log() { printf '[test %ss] %s\n' "$(($(date +%s) - BRAND_TEST_STARTED))" "$*" >&2; }

export TEST_DIALECTS="${TEST_DIALECTS:-sqlite,postgres}"
# Every step (install, build, jest, the server processes some tests start) on the pinned Node 24.
source "$scripts/node-runtime.sh"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

# ---------------------------------------------------------------------------------------
# Inner phase: runs under with-postgres.sh (this same script, re-invoked with
# BRAND_TEST_RESULTS_DIR set) so the server is up for exactly the tests.
# ---------------------------------------------------------------------------------------
if [ -n "${BRAND_TEST_RESULTS_DIR:-}" ]; then
  results="$BRAND_TEST_RESULTS_DIR"
  failed_steps=()

  # Every package's tests in one jest run (the root jest.config.js lists them as projects), so
  # one pool of workers takes the slowest files of any package first. One worker per core: the
  # suite is CPU-bound (the shared module registry took most of the waiting out of it), and twice
  # as many workers cost more CPU and more time on the same fresh clone (docs/performance.md,
  # "Suite time"). JEST_WORKERS overrides.
  # --passWithNoTests: a package without tests yet is not a failure. --ci: no new snapshots.
  workers="${JEST_WORKERS:-$(nproc 2>/dev/null || echo 2)}"
  # Every statement the Postgres test storages send is captured here, and checked after the run
  # by statement-brand-check.test.ts (one brand per statement, DESIGN §9).
  statements=""
  if [[ ",${TEST_DIALECTS}," == *,postgres,* ]]; then
    statements="$results/statements"
    export BRAND_STATEMENT_LOG_DIR="$statements"
  fi
  log "jest (all packages, $workers workers)"
  pnpm exec jest --ci --passWithNoTests --maxWorkers="$workers" \
    --json --outputFile="$results/jest.json" "$@" \
    || failed_steps+=(jest)
  log "jest done"

  # After every other test, so it sees every statement: the statement check over what they sent.
  # Skipped when extra jest arguments narrowed the run (it would see only part of the statements).
  if [ -n "$statements" ] && [ "$#" -eq 0 ]; then
    log "jest (the statements of the Postgres run, one brand each)"
    BRAND_STATEMENT_CHECK=1 pnpm exec jest --ci --json --outputFile="$results/jest-statements.json" \
      packages/persistence-kysely/test/statement-brand-check.test.ts -t 'every statement of the Postgres test run' \
      || failed_steps+=(statements)
  fi

  if [ "${#failed_steps[@]}" -gt 0 ]; then
    printf '%s\n' "${failed_steps[@]}" >"$results/failed-steps"
    exit 1
  fi
  exit 0
fi

# ---------------------------------------------------------------------------------------
# Outer phase.
# ---------------------------------------------------------------------------------------
results="$(mktemp -d "${TMPDIR:-/tmp}/brand-test.XXXXXX")"
trap 'rm -rf "$results"' EXIT
# The API server and CLI processes the tests start load the same built modules: Node keeps their
# compiled code on disk after the first start, so later ones skip compiling them. One cache per
# run, in its results directory; the inner phase and every process it starts inherit it.
export NODE_COMPILE_CACHE="$results/node-compile-cache"

status=0
log "install"
if ! bash "$scripts/setup.sh" --install-only; then
  log "setup (install) failed"
  echo "setup" >"$results/failed-steps"
  status=1
else
  # The static checks (typecheck, ESLint + dependency-cruiser, the Biome format check) need no
  # build and no database: they start now and run beside the build (one core's work in a chain
  # of packages) and jest. Their output is printed at the end, so it stays readable. At the lowest
  # priority: jest is the long pole, and the checks, done long before it, take what it leaves idle
  # (its tests that wait on server processes and timers) rather than slowing the build and it.
  (
    renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
    static_failed=()
    log "typecheck" 2>&1; pnpm run typecheck || static_failed+=(typecheck)
    log "lint (ESLint + dependency-cruiser)" 2>&1; pnpm run lint || static_failed+=(lint)
    log "format check (Biome)" 2>&1; pnpm run format:check || static_failed+=(format)
    log "static checks done" 2>&1
    if [ "${#static_failed[@]}" -gt 0 ]; then printf '%s\n' "${static_failed[@]}" >"$results/static-failed"; fi
  ) >"$results/static.log" 2>&1 &
  static_pid=$!

  # The browser tests drive the system Chromium (no browser can be downloaded here): installing
  # Debian's package takes about 25 s on a machine without it, beside the build rather than
  # after it. It must be done before with-postgres.sh, which may apt-get install postgresql
  # (one dpkg at a time). If it fails the run fails, and so do the browser tests, naming it.
  bash "$scripts/ensure-chromium.sh" >"$results/chromium.log" 2>&1 &
  chromium_pid=$!

  # The build runs beside jest: jest runs from sources (see the preset), and only the files that
  # run the built output (`@needsBuild`) wait for it, told by the status file this writes when the
  # build ends (`ok` or `failed`, moved into place whole; tooling/config/jest-built-output.js).
  # If it fails, the tests still report, and the run still fails.
  export BRAND_TEST_BUILD_STATUS="$results/build-status"
  log "build (beside jest)"
  (
    if pnpm exec turbo run build --filter='!@brand/bench' >"$results/build.log" 2>&1; then
      echo ok >"$BRAND_TEST_BUILD_STATUS.part"
    else
      echo failed >"$BRAND_TEST_BUILD_STATUS.part"
    fi
    mv "$BRAND_TEST_BUILD_STATUS.part" "$BRAND_TEST_BUILD_STATUS"
    log "build done"
  ) &
  build_pid=$!
  chromium_failed=""
  wait "$chromium_pid" || chromium_failed=1
  cat "$results/chromium.log" >&2
  if [ -z "${TEST_POSTGRES_URL:-}" ] && [[ ",${TEST_DIALECTS}," == *,postgres,* ]]; then
    # Through the server's unix socket: the same server and protocol, less CPU a statement. The
    # server is thrown away after the run, so closed test databases are emptied and reused.
    runner=(env POSTGRES_VIA_SOCKET=1 TEST_POSTGRES_REUSE_DATABASES=1 bash "$scripts/with-postgres.sh")
  else
    runner=()   # no server needed (sqlite only, or TEST_POSTGRES_URL given)
  fi
  BRAND_TEST_RESULTS_DIR="$results" "${runner[@]}" bash "$scripts/test.sh" "$@" || status=$?
  wait "$build_pid" || true
  cat "$results/build.log" >&2
  build_failed=""
  if [ "$(cat "$BRAND_TEST_BUILD_STATUS" 2>/dev/null)" != ok ]; then build_failed=1; fi
  # Failed before recording any step (e.g. Postgres would not start): say so.
  if [ "$status" -ne 0 ] && [ ! -s "$results/failed-steps" ]; then
    echo "test run (exit $status)" >"$results/failed-steps"
  fi
  if [ -n "$build_failed" ]; then
    echo "build" >>"$results/failed-steps"
    status=1
  fi
  if [ -n "$chromium_failed" ]; then
    echo "chromium (see [ensure-chromium] above)" >>"$results/failed-steps"
    status=1
  fi
  log "static checks (ran beside the build and jest)"
  wait "$static_pid" || true
  cat "$results/static.log" >&2
  if [ -s "$results/static-failed" ]; then
    cat "$results/static-failed" >>"$results/failed-steps"
    status=1
  fi
fi

# Summary, printed after with-postgres.sh has stopped the server so it really is last.
# A suite that fails to run at all (e.g. a compile error) has no failing tests in the JSON;
# count it as one failure so "0 failed" never hides a broken suite. Likewise a package
# whose jest exited non-zero without writing results.
summary="$(node -e '
  const fs = require("node:fs"), path = require("node:path");
  const dir = process.argv[1];
  let passed = 0, failed = 0;
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    for (const s of r.testResults || []) {
      const hasFailedTest = (s.assertionResults || []).some((a) => a.status === "failed");
      if (s.status === "failed" && !hasFailedTest) failed += 1;
    }
  }
  const steps = fs.existsSync(path.join(dir, "failed-steps"))
    ? fs.readFileSync(path.join(dir, "failed-steps"), "utf8").split("\n").filter(Boolean) : [];
  // jest failed without writing its results (it could not start, or crashed).
  if (steps.includes("jest") && !fs.existsSync(path.join(dir, "jest.json"))) failed += 1;
  if (steps.length) console.error("[test] failed: " + steps.join(", "));
  console.log(`${passed} passed, ${failed} failed`);
' "$results")" || { summary="0 passed, 0 failed"; status=1; }

if [ "$status" -ne 0 ]; then log "FAILED (exit $status)"; fi
echo "$summary"
exit "$status"
