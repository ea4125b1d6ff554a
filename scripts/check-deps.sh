#!/usr/bin/env bash
# Checks (and where it can, installs) what `make run` / `make test` need on a Debian machine.
# Usage: scripts/check-deps.sh build|test
set -euo pipefail
mode=${1:-build}
missing=()
need_apt=()

have() { command -v "$1" >/dev/null 2>&1; }

version_ge() { # version_ge 2.39.5 2.30 → true when $1 >= $2
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

if have git; then
  gv=$(git --version | awk '{print $3}')
  version_ge "$gv" 2.31 || missing+=("git >= 2.31 (found $gv)")
else
  need_apt+=(git)
fi
if have go; then
  gov=$(go env GOVERSION | sed 's/^go//')
  version_ge "$gov" 1.26 || missing+=("Go >= 1.26 (found $gov): https://go.dev/dl/")
else
  missing+=("Go >= 1.26 (https://go.dev/dl/, or the golang-go Debian package if recent enough)")
fi
if have node; then
  nv=$(node --version | sed 's/^v//')
  version_ge "$nv" 20.19 || missing+=("Node.js >= 20.19 (found $nv)")
  have npm || need_apt+=(npm)
else
  need_apt+=(nodejs npm)
fi
# The task runner's sandbox (internal/taskrunner): bubblewrap, limits set with prlimit (util-linux).
have bwrap || need_apt+=(bubblewrap)
have prlimit || need_apt+=(util-linux)
if [ "$mode" = test ]; then
  [ -x /usr/bin/chromium ] || need_apt+=(chromium)   # the browser tests that need a full browser (benches, frames)
  [ -x /usr/bin/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)   # the other browser tests: lighter
  have gcc || need_apt+=(gcc)   # go test -race needs cgo
  have ssh || need_apt+=(openssh-client)   # git over SSH tests (internal/gitssh, internal/app)
fi

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && have apt-get; then
    echo "Installing with apt-get: ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  else
    missing+=("Debian packages: ${need_apt[*]} (run: sudo apt-get install ${need_apt[*]})")
  fi
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "Missing prerequisites:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi
