#!/usr/bin/env bash
# Quick start #2: install what the tests need (Chromium and PostgreSQL from apt included)
# and run the whole gate: lint, format check, typecheck, unit tests on SQLite and on
# PostgreSQL, build, e2e in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
export CI="${CI:-true}"

if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# `npm install` honours package-lock.json; `npm ci` rejects locks written with
# omit-lockfile-registry-resolved (this workplace's npm setting) for other platforms' optional packages.
npm install --no-audit --no-fund
mkdir -p test-results

echo "== lint";        npm run --silent lint
echo "== format";      npm run --silent format:check
echo "== typecheck";   npm run --silent typecheck
echo "== unit";        npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json
# The same suite on PostgreSQL (each test file gets its own database; scripts/pg-up.sh
# installs and starts a local server when needed). A failure here fails the gate.
echo "== unit (PostgreSQL)"
PG_URL="$(bash scripts/pg-up.sh | tail -n 1)"
WAYFINDER_TEST_PG_URL="$PG_URL" npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit-pg.json
echo "== build";       npm run --silent build
echo "== e2e";         npx playwright test
node scripts/test-summary.mjs test-results/unit.json test-results/unit-pg.json test-results/e2e.json
