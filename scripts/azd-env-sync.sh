#!/bin/sh
# Copies the model settings of the repository's .env (made from .env.template) into the current
# azd environment, so that `azd provision` uses them. Runs as azd's preprovision hook; run it by
# hand too (before `azd up`) when in doubt. Without a .env it changes nothing.
# Usage: scripts/azd-env-sync.sh [ENV_FILE]
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
env_file="${1:-$ROOT/.env}"
keys=" AZURE_LOCATION DAPR_COMPONENTS_MODEL DAPR_PUBSUB_MODEL SERVICE_BUS_SKU SERVICE_BUS_MESSAGING_UNITS MAX_MESSAGES_COUNT MAX_ACTIVE_MESSAGES MAX_CONCURRENT_HANDLERS SINGLE_MAX_ACTIVE_MESSAGES SINGLE_MAX_CONCURRENT_HANDLERS BINDING_CONSUMERS_PER_QUEUE DELIVERY_DEADLINE_SECONDS "

if [ ! -f "$env_file" ]; then
  echo "no $env_file: the azd environment's values stay as they are"
  exit 0
fi

current_env="${AZURE_ENV_NAME:-}"
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in ''|'#'*) continue ;; esac
  key=$(printf '%s' "${line%%=*}" | tr -d ' ')
  value=${line#*=}
  value=${value%\"}; value=${value#\"}
  if [ "$key" = AZURE_ENV_NAME ] && [ -n "$current_env" ] && [ "$value" != "$current_env" ]; then
    echo "warning: .env names environment '$value' but azd runs '$current_env' (azd env select $value)" >&2
  fi
  case "$keys" in
    *" $key "*) azd env set "$key" "$value" >/dev/null && echo "azd env: $key=$value" ;;
  esac
done < "$env_file"
