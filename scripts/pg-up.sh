#!/usr/bin/env bash
# Starts a local PostgreSQL 15 for Wayfinder's tests and CI: installs it from apt when
# missing, starts cluster 15/main on 127.0.0.1:5432, and creates the role `wayfinder`
# (password `wayfinder`, CREATEDB). Idempotent. Prints the admin URL the tests take as
# WAYFINDER_TEST_PG_URL on its last line.
set -euo pipefail

PORT="${WAYFINDER_PG_PORT:-5432}"
SUDO=""
AS_PG=(runuser -u postgres --)
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; AS_PG=(sudo -u postgres); fi

if [ ! -x /usr/lib/postgresql/15/bin/postgres ]; then
  echo "pg-up: installing postgresql-15" >&2
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql-15 >&2
fi

if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "15 main"; then
  $SUDO pg_createcluster 15 main -p "$PORT" >&2
fi
# Loopback only (the tests need nothing else) and no durability: the databases are
# throwaway, and fsync costs seconds per test file.
conf="/etc/postgresql/15/main/conf.d/wayfinder.conf"
want="listen_addresses = '127.0.0.1'
port = ${PORT}
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200"
if [ "$(cat "$conf" 2>/dev/null)" != "$want" ]; then
  echo "$want" | $SUDO tee "$conf" >/dev/null
  if pg_lsclusters -h | awk '$1 == "15" && $2 == "main" {print $4}' | grep -qx online; then
    $SUDO pg_ctlcluster 15 main restart >&2
  fi
fi

status="$(pg_lsclusters -h | awk '$1 == "15" && $2 == "main" {print $4}')"
if [ "$status" != "online" ]; then
  $SUDO pg_ctlcluster 15 main start >&2
fi

for _ in $(seq 1 50); do
  if (cd / && "${AS_PG[@]}" psql -p "$PORT" -h /var/run/postgresql -qAtc "SELECT 1" >/dev/null 2>&1); then break; fi
  sleep 0.2
done

run_sql() { (cd / && "${AS_PG[@]}" psql -p "$PORT" -h /var/run/postgresql -v ON_ERROR_STOP=1 -qAt "$@"); }
if [ "$(run_sql -c "SELECT 1 FROM pg_roles WHERE rolname = 'wayfinder'")" != "1" ]; then
  run_sql -c "CREATE ROLE wayfinder LOGIN PASSWORD 'wayfinder' CREATEDB"
else
  run_sql -c "ALTER ROLE wayfinder LOGIN PASSWORD 'wayfinder' CREATEDB"
fi

echo "postgresql://wayfinder:wayfinder@127.0.0.1:${PORT}/postgres"
