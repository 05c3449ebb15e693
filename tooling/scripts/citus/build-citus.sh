#!/usr/bin/env bash
# Usage: CITUS_SRC=<citus source tree, tag v13.2.x> build-citus.sh
#
# Builds Citus from its public source against Debian's PostgreSQL 15 and installs it into that
# server, unless citus.so is there already. Citus is in no registry this project can reach, so the
# source tree is given (a checkout of the citusdata/citus repository at a v13.2 tag). Installs the
# build dependencies with apt-get when they are missing.
set -euo pipefail

log() { printf '[build-citus] %s\n' "$*" >&2; }

pg_config="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

packages=(postgresql-server-dev-15 build-essential autoconf flex bison libkrb5-dev libcurl4-openssl-dev
  liblz4-dev libzstd-dev libselinux1-dev libxslt1-dev libpam0g-dev libssl-dev libreadline-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

pkglibdir="$("$pg_config" --pkglibdir)"
if [ -f "$pkglibdir/citus.so" ]; then
  log "citus.so is installed already ($pkglibdir)"
  exit 0
fi

: "${CITUS_SRC:?set CITUS_SRC to a Citus source tree (tag v13.2.x)}"
build="$(mktemp -d "${TMPDIR:-/tmp}/citus-build.XXXXXX")"
trap 'rm -rf "$build"' EXIT
cp -a "$CITUS_SRC/." "$build/"
cd "$build"
# Debian's 15.x exports have_createdb_privilege itself; Citus's static copy then clashes with it.
python3 - <<'PY'
import re, pathlib
p = pathlib.Path('src/include/pg_version_compat.h')
s = p.read_text()
s2 = re.sub(r'static inline bool\s*\nhave_createdb_privilege\(void\)\s*\{.*?\n\}\n', '', s, flags=re.S)
if s2 != s:
    p.write_text(s2)
    print('[build-citus] dropped the static have_createdb_privilege of pg_version_compat.h')
PY
log "configure"
./configure PG_CONFIG="$pg_config" >"$build/configure.log" 2>&1 || { tail -30 "$build/configure.log" >&2; exit 1; }
log "make"
make -j"$(nproc)" >"$build/make.log" 2>&1 || { tail -40 "$build/make.log" >&2; exit 1; }
$sudo make install >"$build/install.log" 2>&1 || { tail -20 "$build/install.log" >&2; exit 1; }
log "installed into $pkglibdir"
