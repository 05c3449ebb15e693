#!/usr/bin/env bash
# Install + build, then run the API server in the foreground.
# The server reads DATABASE_URL (default ./data/brand.sqlite, relative to the repo root)
# and PORT (default 3000). Extra arguments are passed to the server.
set -euo pipefail

# Repo root, so the default ./data/brand.sqlite lands in the (git-ignored) data/ folder.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

bash tooling/scripts/setup.sh
source tooling/scripts/node-runtime.sh

# exec: the server becomes this process, so signals (Ctrl-C, docker stop) reach it directly.
# The server's Node flags (apps/api/server.node-flags; comments stripped).
# shellcheck disable=SC2046
exec node $(grep -v '^#' apps/api/server.node-flags) apps/api/dist/server.js "$@"
