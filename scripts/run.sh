#!/usr/bin/env bash
# Runs LifeSignal: the server, the web app and the escalation engine on ./lifesignal.sqlite.
# Open http://localhost:8080. Development mode (--dev): sign-in codes appear in this terminal (no SMS).
# Extra arguments go to `lifesignal serve` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product lifesignal
exec .build/release/lifesignal serve --dev "$@"
