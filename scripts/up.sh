#!/usr/bin/env bash
# Quick start #1: install, migrate, index a repository, build and serve on :3000.
# WAYFINDER_REPO picks the repository to index (default: Wayfinder's own source).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

# shellcheck source=scripts/node-env.sh
source scripts/node-env.sh

if [ ! -f node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
elif [ package.json -nt node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
fi
# Indexing applies pending migrations first: a fresh install and an upgrade both start here.
npm run --silent wayfinder -- index "${WAYFINDER_REPO:-$PWD}"

# Rebuild only when a source file is newer than the last build.
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib public next.config.mjs package.json -newer .next/BUILD_ID -type f -not -path 'lib/db/generated/*' -not -path 'lib/db/generated-pg/*' -print -quit 2>/dev/null)" ]; then
  npm run build
fi
# Loopback by default (open access for one person); HOST=0.0.0.0 serves the network, in token mode unless WAYFINDER_ACCESS says otherwise.
exec npm run start -- --port "${PORT:-3000}" --hostname "${HOST:-127.0.0.1}"
