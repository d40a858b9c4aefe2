#!/usr/bin/env bash
# Starts Debian's PostgreSQL 15 cluster and makes a role + database for the storage tests, so the
# club-server code path is tested against a real server, not a mock.
# Idempotent: safe to run again while the server is up. Must run as root (CI does).
# Prints the URL to export as BEZIQUE_TEST_POSTGRES_URL on stdout (everything else goes to stderr):
#     export BEZIQUE_TEST_POSTGRES_URL="$(scripts/pg-test-server.sh)"
set -euo pipefail

VERSION="${PG_VERSION:-15}"
CLUSTER="${PG_CLUSTER:-main}"
ROLE="${PG_TEST_ROLE:-bezique_test}"
DB="${PG_TEST_DB:-bezique_test}"
PASSWORD="${PG_TEST_PASSWORD:-bezique_test}"

log() { echo "pg-test-server: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  log "must run as root (it starts the system cluster with pg_ctlcluster)"
  exit 1
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  log "pg_ctlcluster not found: apt-get install postgresql (scripts/system-deps.sh does it)"
  exit 1
fi

if ! pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1==v && $2==c {f=1} END {exit !f}'; then
  log "creating cluster $VERSION/$CLUSTER"
  pg_createcluster "$VERSION" "$CLUSTER" >&2
fi

PORT="$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1==v && $2==c {print $3}')"
STATUS="$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1==v && $2==c {print $4}')"
if [ "$STATUS" != "online" ]; then
  log "starting cluster $VERSION/$CLUSTER on port $PORT"
  # Containers often lack the socket directory that the package's tmpfiles.d would create.
  install -d -o postgres -g postgres -m 2775 /var/run/postgresql
  pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi

psql_admin() { runuser -u postgres -- psql -p "$PORT" -v ON_ERROR_STOP=1 -qtAX "$@"; }

for _ in $(seq 1 50); do
  if psql_admin -c "select 1" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
psql_admin -c "select 1" >/dev/null

if [ "$(psql_admin -c "select 1 from pg_roles where rolname = '$ROLE'")" != "1" ]; then
  log "creating role $ROLE"
  psql_admin -c "create role $ROLE login password '$PASSWORD'"
else
  psql_admin -c "alter role $ROLE login password '$PASSWORD'"
fi
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$DB'")" != "1" ]; then
  log "creating database $DB"
  psql_admin -c "create database $DB owner $ROLE"
fi

echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
