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

# Rebuild only when a source file is newer than the last build. Next.js lists the
# experiments next.config.mjs sets, and prints the build cache we turn off on purpose
# as "⨯ turbopackFileSystemCacheForBuild", which reads like an error: that banner is
# left out, the rest of the build's output passes unchanged.
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib public next.config.mjs package.json -newer .next/BUILD_ID -type f -not -path 'lib/db/generated/*' -not -path 'lib/db/generated-pg/*' -print -quit 2>/dev/null)" ]; then
  echo "Building the web app (about a minute)…"
  npm run --silent build 2>&1 | sed -e '/^- Experiments (use with caution):$/d' -e '/^  [⨯✓·] [A-Za-z]*$/d'
fi
# Loopback by default (open access for one person); HOST=0.0.0.0 serves the network, in token mode unless WAYFINDER_ACCESS says otherwise.
exec npm run start -- --port "${PORT:-3000}" --hostname "${HOST:-127.0.0.1}"
