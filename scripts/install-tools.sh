#!/usr/bin/env bash
# Installs the npm tools the project runs into ./.tools (git-ignored):
#  - Azurite, the Azure Storage emulator (storage tests, local runs): ./.tools/node_modules/.bin/azurite
#  - Microsoft's Kusto language service (Kusto.Language compiled to JavaScript), with which
#    scripts/kql-check.js and the deployment tests parse scripts/kql/*.kql.
#  - action-validator (the GitHub Actions workflow schema, offline) and the Dev Containers CLI, with which the
#    deployment tests check .github/workflows/ and .devcontainer/devcontainer.json.
#  - markdownlint-cli2, with which .ci/run and the deployment tests lint README.md and docs/
#    (.markdownlint-cli2.jsonc).
# and checks, without installing anything system-wide, for RabbitMQ (the local bindings model):
# it says how to get it when it is missing. Bash 3.2 compatible (macOS).
# Usage: scripts/install-tools.sh      (no options; --help prints this)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AZURITE_VERSION="${AZURITE_VERSION:-3.37.0}"
KUSTO_VERSION="${KUSTO_VERSION:-12.4.1}"
ACTION_VALIDATOR_VERSION="${ACTION_VALIDATOR_VERSION:-0.6.0}"
DEVCONTAINERS_CLI_VERSION="${DEVCONTAINERS_CLI_VERSION:-0.89.0}"
MARKDOWNLINT_CLI2_VERSION="${MARKDOWNLINT_CLI2_VERSION:-0.24.1}"

if ! command -v npm >/dev/null 2>&1; then
  echo "npm not found: install Node.js 20 or later (e.g. apt-get install nodejs npm)." >&2
  exit 1
fi
mkdir -p "$ROOT/.tools"
npm install --prefix "$ROOT/.tools" --no-audit --no-fund --loglevel=error \
  "azurite@$AZURITE_VERSION" "@kusto/language-service-next@$KUSTO_VERSION" \
  "@action-validator/cli@$ACTION_VALIDATOR_VERSION" "@action-validator/core@$ACTION_VALIDATOR_VERSION" \
  "@devcontainers/cli@$DEVCONTAINERS_CLI_VERSION" "markdownlint-cli2@$MARKDOWNLINT_CLI2_VERSION"

# RabbitMQ: a check with a hint, not an install (it is a system service, and only the bindings
# model needs it; scripts/run-local.sh bindings uses a running one or starts the installed one).
if command -v rabbitmq-server >/dev/null 2>&1 || (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null; then
  echo "RabbitMQ: found (bindings model)"
else
  echo "RabbitMQ: not found. Only the bindings model (scripts/run-local.sh bindings) needs it:"
  case "$(uname -s)" in
    Darwin) echo "  brew install rabbitmq && brew services start rabbitmq" ;;
    Linux)
      if command -v apt-get >/dev/null 2>&1; then
        echo "  sudo apt-get install rabbitmq-server"
      else
        echo "  install rabbitmq-server with your package manager: https://www.rabbitmq.com/docs/download"
      fi
      ;;
    *) echo "  https://www.rabbitmq.com/docs/download" ;;
  esac
  echo "  or run any RabbitMQ 3.x on 127.0.0.1:5672 with its default guest user."
fi
