#!/usr/bin/env bash
# Runs every test: unit, store (SQLite and a throwaway PostgreSQL), API, delivery
# adapters against local fakes, app logic, CLI, and the web app in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --tests

# One house format (.swift-format at the root, swift-format from the toolchain).
swift format lint --strict --recursive Sources Tests Package.swift

export LIFESIGNAL_PYTHON="$PWD/.venv/bin/python3"
eval "$(scripts/postgres.sh start)"
trap 'scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT

swift build --build-tests
# The app-logic suites run their effects on the main serial executor (deterministic clocks),
# a process-wide switch; they get a process of their own so the server suites keep real
# concurrency.
swift test --skip-build --filter 'ComposableCoreTests|LifeSignalFeaturesTests'
swift test --skip-build --skip 'ComposableCoreTests|LifeSignalFeaturesTests'
# The web app in headless Chromium (it uses the lifesignal binary built above).
SKIP_BUILD=1 scripts/web-test.sh
