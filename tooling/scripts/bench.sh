#!/usr/bin/env bash
# Runs a benchmark from bench/ (not part of the tests): builds everything, then runs the named
# benchmark, e.g. `pnpm bench customers-list`. Results are printed and saved in bench/results/.
set -euo pipefail
cd "$(dirname "$0")/../.."
name="${1:-customers-list}"
bash tooling/scripts/setup.sh
source tooling/scripts/node-runtime.sh
node "bench/dist/${name}.bench.js"
