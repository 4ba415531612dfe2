#!/usr/bin/env bash
# Runs the unit suite (SQLite) on the newest Node.js release line as well, with the
# dependencies the gate installed: `npm run test:newest-node` (after `npm test` or
# `npm ci`). WAYFINDER_NEWEST_NODE picks the version (default below).
set -euo pipefail
cd "$(dirname "$0")/.."
export WAYFINDER_NODE_VERSION="${WAYFINDER_NEWEST_NODE:-26.10.0}"
# shellcheck source=scripts/node-env.sh
source scripts/node-env.sh
echo "== node $(node --version)"
if [ ! -f node_modules/.package-lock.json ]; then npm ci --no-audit --no-fund; fi
npx vitest run
