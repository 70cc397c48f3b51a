#!/usr/bin/env bash
# Installs what LifeSignal needs on a fresh Debian machine with Swift: system libraries,
# and (for the tests) PostgreSQL, a headless Chromium and a Python virtualenv.
# Usage: scripts/bootstrap.sh [--tests]
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=false
[[ "${1:-}" == "--tests" ]] && want_tests=true

packages=(libsqlite3-dev libqrencode-dev libphonenumber-dev pkg-config)
if $want_tests; then
    packages+=(postgresql chromium chromium-driver python3-venv)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "bootstrap: installing ${missing[*]}" >&2
    sudo_cmd=""
    [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if $want_tests && [[ -f scripts/test-requirements.txt ]]; then
    if [[ ! -x .venv/bin/python3 ]]; then
        python3 -m venv .venv
    fi
    if ! .venv/bin/python3 -m pip install -q --disable-pip-version-check -r scripts/test-requirements.txt; then
        echo "bootstrap: could not install the Python test requirements" >&2
        exit 1
    fi
fi
