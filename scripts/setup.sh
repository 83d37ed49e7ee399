#!/usr/bin/env bash
# Everything a fresh machine needs: the npm dependencies from the lockfile;
# for the browser tests, a Chromium from the system's packages (no browser can
# be downloaded by npm on these machines); and for the chat-store tests, the
# PostgreSQL server programs from the system's packages (the tests start and
# stop a cluster of their own; no server is left running); and for the mock
# sandbox's CPython engine, bubblewrap and Debian's python3 with numpy, pandas,
# matplotlib, scipy and sympy, and libseccomp's bindings (a run's filter) (named by path: another python3 may come first
# on the PATH); and for the test of two chat servers resuming each other's
# runs, redis-server (the test starts a private one on a loopback port); and
# for the Jupyter sandbox's tests, Debian's jupyter-server and ipykernel.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=()
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] || packages+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || packages+=(postgresql)
command -v bwrap >/dev/null 2>&1 || packages+=(bubblewrap)
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)
for module in numpy pandas matplotlib scipy sympy seccomp; do
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import $module" >/dev/null 2>&1 || packages+=("python3-$module")
done
# The Jupyter sandbox's tests start a Jupyter server of their own.
for package in jupyter-server ipykernel; do
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import ${package//-/_}" >/dev/null 2>&1 || packages+=("python3-$package")
done

if [ ${#packages[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${packages[*]} from Debian's packages…"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${packages[@]}" >/dev/null
    # The package may start a cluster of its own; the tests need none of it.
    if [[ " ${packages[*]} " == *" postgresql "* ]] && command -v pg_ctlcluster >/dev/null 2>&1; then
      $sudo_cmd service postgresql stop >/dev/null 2>&1 || true
    fi
    if [[ " ${packages[*]} " == *" redis-server "* ]]; then
      $sudo_cmd service redis-server stop >/dev/null 2>&1 || true
    fi
  else
    echo "Missing ${packages[*]}: install them (Chromium at $chromium, or set CHROMIUM_PATH; PostgreSQL's server programs under /usr/lib/postgresql; bwrap and /usr/bin/python3 with those modules)." >&2
    exit 1
  fi
fi

npm ci --no-audit --no-fund
