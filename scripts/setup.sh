#!/usr/bin/env bash
# Everything a fresh machine needs: the npm dependencies from the lockfile and,
# for the browser tests, a Chromium from the system's packages (no browser can
# be downloaded by npm on these machines).
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium from Debian's packages…"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
  else
    echo "No Chromium at $chromium: install it, or set CHROMIUM_PATH to one." >&2
    exit 1
  fi
fi

npm ci --no-audit --no-fund
