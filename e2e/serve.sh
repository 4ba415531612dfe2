#!/usr/bin/env bash
# Starts the production server for e2e on a fresh data directory with the fixture
# repository indexed, so every run begins from the same state.
set -euo pipefail
cd "$(dirname "$0")/.."
export WAYFINDER_HOME="${WAYFINDER_HOME:-$PWD/.wayfinder-e2e-${1:-3100}}"
rm -rf "$WAYFINDER_HOME"
npm run --silent db:migrate >/dev/null
npm run --silent wayfinder -- index e2e/fixtures/shop --name shop >/dev/null
exec node_modules/.bin/next start --port "${1:-3100}" --hostname 127.0.0.1
