#!/usr/bin/env bash
# Quick start #2: install what the tests need (a supported Node, Chromium and PostgreSQL
# from apt) and run the whole gate: lint, format check, build, typecheck, unit tests on
# SQLite and on PostgreSQL, e2e in Chromium. Ends with one "N passed, N failed" line.
#
# Lint and the format check first, then the production build alone (the largest process),
# then the unit suite beside the typecheck, then e2e. Each stage's output is printed when
# it ends, with its time.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
export CI="${CI:-true}"

# shellcheck source=scripts/node-env.sh
source scripts/node-env.sh
echo "== node $(node --version), npm $(npm --version)"

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
# e2e drives Chromium's headless shell (playwright.config.ts).
if [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell >/dev/null
fi

# A fresh clone installs exactly what package-lock.json lists; an existing tree is updated.
if [ -f node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
else
  npm ci --no-audit --no-fund
fi

LOGS=test-results/logs
rm -rf test-results
mkdir -p "$LOGS"
GATE_START=$(date +%s)

# run_stage NAME COMMAND…: runs one stage with its output in $LOGS/NAME.log, then prints
# that output and the stage's time. Returns the stage's exit status.
run_stage() {
  local name="$1"
  shift
  local start=$SECONDS status=0
  "$@" >"$LOGS/$name.log" 2>&1 || status=$?
  {
    echo "== $name ($((SECONDS - start)) s, exit $status)"
    cat "$LOGS/$name.log"
  } >>"$LOGS/$name.out"
  cat "$LOGS/$name.out"
  return $status
}

# The unit suite on SQLite and, in the same run, on PostgreSQL: the files that open a test
# database, each with a database of its own (scripts/pg-up.sh installs and starts a local
# server when needed). Two test workers share both.
unit_tests() {
  local url
  url="$(bash scripts/pg-up.sh | tail -n 1)"
  WAYFINDER_TEST_PG_URL="$url" node_modules/.bin/vitest run --maxWorkers=2 --reporter=default \
    --reporter=json --outputFile.json=test-results/unit.json
}

failed=()
# The fast checks first: a lint or format error stops the gate within seconds.
run_stage lint npm run --silent lint || failed+=(lint)
run_stage format npm run --silent format:check || failed+=(format)
if [ ${#failed[@]} -gt 0 ]; then
  echo "gate stopped: ${failed[*]} failed"
  exit 1
fi
# The production build (Turbopack, about 1.1 GB) runs alone, so the
# gate's memory stays near the build's own.
build_ok=true
run_stage build node_modules/.bin/next build || { failed+=(build); build_ok=false; }

# Then the unit suite (CPU-bound, two workers) beside the typecheck, and e2e last with the
# machine to itself: run beside the unit suite it would save about a minute and a half
# but hold about 1.5 GB more, and its timings (live progress, streamed passes) would
# measure the unit suite's load. Binaries run without an npm wrapper, which would hold
# about 80 MB per stage.
run_stage typecheck node_modules/.bin/tsc --noEmit & typecheck=$!
run_stage unit unit_tests || failed+=(unit)
wait $typecheck || failed+=(typecheck)
if $build_ok; then run_stage e2e node_modules/.bin/playwright test || failed+=(e2e); fi

echo "== gate: $(($(date +%s) - GATE_START)) s after install${failed:+; failed stages: ${failed[*]}}"
reports=()
for report in test-results/unit.json test-results/e2e.json; do
  if [ -f "$report" ]; then reports+=("$report"); fi
done
node scripts/test-summary.mjs "${reports[@]}"
if [ ${#failed[@]} -gt 0 ]; then exit 1; fi
