#!/usr/bin/env bash
# Usage: ensure-chromium.sh
#
# Makes sure a Chromium for the browser tests (apps/api/test/support/browser.ts) is on PATH:
# does nothing when `chromium` (Debian) or `chromium-browser` (Ubuntu) is found, or when
# CHROMIUM_PATH names an executable; otherwise installs Debian's `chromium` package with
# apt-get. Browser builds cannot be downloaded here (only the npm registry and Debian's
# mirrors are reachable), so the distribution's package is the one source. Exits non-zero,
# naming what is missing, when no Chromium can be had: the browser tests then fail with the
# same name; they are never skipped.
set -euo pipefail

log() { printf '[ensure-chromium] %s\n' "$*" >&2; }

find_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; return 0; fi
  command -v chromium || command -v chromium-browser
}

if found="$(find_chromium)"; then
  log "found $found"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  log "no chromium on PATH and no apt-get to install it: install Chromium (Debian/Ubuntu package \`chromium\`) or set CHROMIUM_PATH"
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# --no-install-recommends: the recommended extras (the setuid sandbox, Mesa's GL drivers, udev,
# upower and with them systemd) are of no use to a headless browser run as root with
# --no-sandbox. A font is added instead, so that a machine without any still renders
# legible screenshots. dpkg reports every package it unpacks even with -qq: that goes to a
# log, shown only when the install fails.
apt_log="$(mktemp "${TMPDIR:-/tmp}/ensure-chromium.XXXXXX")"
trap 'rm -f "$apt_log"' EXIT
install_chromium() {
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    chromium fonts-liberation >>"$apt_log" 2>&1
}
log "no chromium on PATH; installing Debian's chromium package"
# The package lists already on the machine first (fast); when that fails (lists missing or
# stale), refresh them and try once more.
if ! install_chromium; then
  log "install failed; refreshing the package lists (apt-get update) and retrying"
  { $sudo apt-get update -qq >>"$apt_log" 2>&1 && install_chromium; } || tail -n 30 "$apt_log" >&2
fi

if found="$(find_chromium)"; then
  log "installed $found"
  exit 0
fi
log "could not install Debian's chromium package (apt-get install chromium failed, see above): the browser tests will fail"
exit 1
