#!/usr/bin/env bash
# Installs Debian's redis-server and postgresql when missing and starts both on
# loopback for the scale-out tests (test/helpers/shared-services.ts reads the
# same addresses). A server already answering there is used as it is. nginx is
# installed too (not started): a test runs the configuration of docs/deploy.md.
#   Redis:      redis://127.0.0.1:6379
#   PostgreSQL: postgres://postgres@127.0.0.1:5439/postgres (trust on loopback: a throwaway
#               cluster on a port of its own, whatever PostgreSQL the machine already runs)
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  # Redis only carries updates, events and rate counters here: nothing to persist.
  redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --daemonize yes
fi

PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGDATA=${PGDATA_DIR:-/tmp/board-service-pg}
if ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p 5439; then
  as_pg() { if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
  if [ ! -f "$PGDATA/PG_VERSION" ]; then
    mkdir -p "$PGDATA"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$PGDATA"; fi
    as_pg "$PGBIN/initdb -D $PGDATA -A trust -U postgres >/dev/null"
  fi
  as_pg "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/server.log -w -o '-h 127.0.0.1 -p 5439 -k /tmp -c max_connections=300' start >/dev/null"
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null
"$PGBIN/pg_isready" -h 127.0.0.1 -p 5439
