#!/usr/bin/env bash
# Installs the Debian packages the whole test suite needs (a browser for the app's end-to-end
# tests, PostgreSQL for the club-server storage tests, a font with the card suits, Node.js for
# the phone build's test), when missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# Node.js: the phone build compiles its Python with Pyodide under Node (scripts/phone/).
command -v node >/dev/null 2>&1 || need+=(nodejs)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: please install: ${need[*]} (apt-get, as root)" >&2
    exit 1
  fi
  echo "system-deps: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
