#!/usr/bin/env bash
# Runs every test: unit, store (SQLite and a throwaway PostgreSQL), API, delivery
# adapters against local fakes, app logic, CLI, the API fuzzed against its OpenAPI document
# (schemathesis), and the web app in headless Chromium.
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
# concurrency, and run one test at a time: tests interleaving on the one main queue could let
# `clock.run()` look before an effect has reached its sleep (the whole run takes ~1 s).
# Through the watchdog: output line by line, and a run in which no test starts or ends for
# 10 minutes ends, naming the tests still running, instead of hanging until CI's limit.
scripts/watchdog.py -- swift test --skip-build --no-parallel --filter 'ComposableCoreTests|LifeSignalFeaturesTests'
# The rest in parallel, but at most four test cases per core at a time. Unbounded,
# swift-testing starts every test at once; on two loaded cores the executor's queue then grows
# so long that the tests' own time limits and the store's connect and lease deadlines fire
# before the work they bound is even scheduled (a hundred "cannot connect" failures and
# 120-s limits in runs beside a build, none in bounded runs under the same load; see
# docs/decisions/0071). The bound changes how many run together, not what any test checks.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(($(nproc) * 4))}"
scripts/watchdog.py -- swift test --skip-build --skip 'ComposableCoreTests|LifeSignalFeaturesTests'
# The /v1 API against its OpenAPI document, every schemathesis check on (a live server).
SKIP_BUILD=1 scripts/api-fuzz.sh
# The web app in headless Chromium (it uses the lifesignal binary built above).
SKIP_BUILD=1 scripts/web-test.sh
