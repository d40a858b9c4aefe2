#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what it needs (Debian packages when run as
# root, the Python environment in .venv), then lint, types and every test.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/system-deps.sh
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[dev]'
# PostgreSQL for the club-server storage tests, when this machine can start one.
if [ -z "${BEZIQUE_TEST_POSTGRES_URL:-}" ] && [ -x scripts/pg-test-server.sh ]; then
  if url=$(bash scripts/pg-test-server.sh); then export BEZIQUE_TEST_POSTGRES_URL="$url"; fi
fi
echo "== ruff"; .venv/bin/ruff check referee ui tests benchmarks
echo "== mypy --strict referee"; .venv/bin/mypy --strict referee
echo "== pytest"
set +e
.venv/bin/python -m pytest "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi
exit "$code"
