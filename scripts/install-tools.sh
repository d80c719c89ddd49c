#!/usr/bin/env bash
# Installs the npm tools the project runs into ./.tools (git-ignored):
#  - Azurite, the Azure Storage emulator (storage tests, local runs): ./.tools/node_modules/.bin/azurite
#  - Microsoft's Kusto language service (Kusto.Language compiled to JavaScript), with which
#    scripts/kql-check.js and the deployment tests parse scripts/kql/*.kql.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AZURITE_VERSION="${AZURITE_VERSION:-3.37.0}"
KUSTO_VERSION="${KUSTO_VERSION:-12.4.1}"

if ! command -v npm >/dev/null 2>&1; then
  echo "npm not found: install Node.js 20 or later (e.g. apt-get install nodejs npm)." >&2
  exit 1
fi
mkdir -p "$ROOT/.tools"
npm install --prefix "$ROOT/.tools" --no-audit --no-fund --loglevel=error \
  "azurite@$AZURITE_VERSION" "@kusto/language-service-next@$KUSTO_VERSION"
