#!/usr/bin/env bash
# `node` on the pinned Node 24 (see node-runtime.sh), for package scripts such as `pnpm brand`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-runtime.sh"
exec node "$@"
