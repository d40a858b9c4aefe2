#!/usr/bin/env bash
# Installs (first time) and starts the table app on the embedded SQLite database: a desktop
# window where the machine can show one, otherwise in the browser on 127.0.0.1 (--web).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
if ! .venv/bin/python -c "import referee, flet" 2>/dev/null; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e .
fi
exec .venv/bin/python -m ui.main "$@"
