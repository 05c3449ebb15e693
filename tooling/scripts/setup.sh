#!/usr/bin/env bash
# Idempotent setup: the pinned Node, make sure pnpm exists, install the workspace, build every package.
# Safe to run repeatedly (a no-op install + cached turbo build take a few seconds), so
# test.sh and start.sh call it first and a fresh clone needs nothing else.
#
# Usage: setup.sh [--install-only]   (--install-only: skip the build; test.sh builds as a
#                                     separate step so a build error does not hide tests)
set -euo pipefail

install_only=""
if [ "${1:-}" = "--install-only" ]; then install_only=1; fi

# Work from the repository root whatever the caller's cwd.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

log() { printf '[setup] %s\n' "$*" >&2; }

# Turbo phones home by default; CI only reaches the npm registry.
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

# corepack cannot fetch pnpm here (signature check fails), so install the pinned version
# from the npm registry instead. Keep this in step with "packageManager" in package.json.
PNPM_VERSION=9.15.9
if ! command -v pnpm >/dev/null 2>&1; then
  log "pnpm not found; installing pnpm@${PNPM_VERSION} with npm"
  npm install -g "pnpm@${PNPM_VERSION}"
fi

# The pinned Node 24 (provisioned into .tools/ when the system's is another major), with
# npm_config_nodedir at its headers so better-sqlite3 compiles its addon for it.
source tooling/scripts/node-runtime.sh

# --frozen-lockfile: CI must install exactly what is committed. Without a lockfile (very
# early in a project) fall back to a normal install. confirmModulesPurge=false keeps pnpm
# from aborting in non-interactive shells when it needs to recreate node_modules.
log "installing dependencies"
if [ -f pnpm-lock.yaml ]; then
  pnpm install --reporter=default --frozen-lockfile --config.confirmModulesPurge=false
else
  pnpm install --reporter=default --config.confirmModulesPurge=false
fi

# A native addon is built for one Node ABI: node_modules installed under another Node (before
# the move to Node 24, or by hand) cannot load it. Rebuild it for this one when it does not load.
if ! (cd packages/persistence-kysely && node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null); then
  log "rebuilding native addons for Node $(node --version)"
  pnpm -r rebuild better-sqlite3
fi

if [ -n "$install_only" ]; then exit 0; fi

log "building (turbo run build)"
pnpm run build
