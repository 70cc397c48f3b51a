#!/usr/bin/env bash
# Fuzzes the /v1 API against its OpenAPI document with schemathesis (every check on) on a
# live `lifesignal serve --dev` with a throwaway SQLite file and a real bearer token.
# Bounded (a few examples per operation, a fixed seed): a couple of minutes.
# Usage: scripts/api-fuzz.sh [extra `st run` options]; SKIP_BUILD=1 uses the binary as built.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/st ] || scripts/bootstrap.sh --tests
[ "${SKIP_BUILD:-0}" = 1 ] || swift build --product lifesignal
exec .venv/bin/python Tests/api/fuzz_api.py "$@"
