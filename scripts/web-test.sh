#!/usr/bin/env bash
# End-to-end tests of the web app in headless Chromium (Selenium + pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c "import selenium, pytest" 2>/dev/null || .venv/bin/pip install -q -r scripts/test-requirements.txt
[ "${SKIP_BUILD:-0}" = 1 ] || swift build --product lifesignal
mkdir -p artifacts/screenshots
export SE_OFFLINE=true
exec .venv/bin/python -m pytest -q Tests/web "$@"
