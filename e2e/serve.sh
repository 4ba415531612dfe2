#!/usr/bin/env bash
# Starts the production server for e2e on a fresh data directory with the fixture
# repository indexed, so every run begins from the same state. The freshly indexed
# directory is kept as a template beside it: the specs that start a second server
# (e2e/support/wayfinder-server.ts) copy it instead of migrating and indexing again.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${1:-3100}"
export WAYFINDER_HOME="${WAYFINDER_HOME:-$PWD/.wayfinder-e2e-${PORT}}"
TEMPLATE="$PWD/.wayfinder-e2e-${PORT}-template"
rm -rf "$WAYFINDER_HOME" "$TEMPLATE"
# One CLI run: every command applies pending migrations first.
WAYFINDER_HOME="$TEMPLATE" node --conditions=react-server --import tsx lib/cli/main.ts \
  index e2e/fixtures/shop --name shop >/dev/null
cp -a "$TEMPLATE" "$WAYFINDER_HOME"
# Idle connections stay open longer than any pause between one spec's requests: with Node's
# 5 s default, a request sent on a kept-alive socket the server is closing fails with
# ECONNRESET ("socket hang up") although the server is fine.
exec node_modules/.bin/next start --port "$PORT" --hostname 127.0.0.1 --keepAliveTimeout 120000
