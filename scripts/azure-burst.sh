#!/usr/bin/env bash
# Sends a burst of orders into the deployed environment with the load tool and waits for it.
# Usage: scripts/azure-burst.sh [--count 10000] [extra load tool arguments...]
# Reads the azd environment (azd env get-values) and passes endpoints to the load tool as
# environment variables. The load tool authenticates as you (DefaultAzureCredential: az login);
# main.bicep gives AZURE_PRINCIPAL_ID send rights on q-order-ingress and blob access.
# Flags as the load tool declares them today (run --target azure --count --model --pubsub-mode
# --storage-account-url). TO CHECK: the load tool has no Service Bus option yet (its azure target
# is not built: Azure.Messaging.ServiceBus cannot be restored); this passes the namespace as
# LOADTOOL_SERVICEBUS_NAMESPACE until it has one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

count=10000
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done

eval "$(azd env get-values)"
: "${SERVICEBUS_NAMESPACE_FQDN:?not in the azd environment: run azd provision first}"
: "${STORAGE_BLOB_ENDPOINT:?not in the azd environment}"
model="${DAPR_COMPONENTS_MODEL:-pubsub}"
mode="${DAPR_PUBSUB_MODEL:-bulk}"

export LOADTOOL_SERVICEBUS_NAMESPACE="$SERVICEBUS_NAMESPACE_FQDN"

echo "burst: $count orders, model $model ($mode), namespace $SERVICEBUS_NAMESPACE_FQDN" >&2
started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
dotnet run --project "$ROOT/src/OrderDistribution.LoadTool" -c Release -- \
  run --target azure --count "$count" --model "$model" --pubsub-mode "$mode" \
  --storage-account-url "$STORAGE_BLOB_ENDPOINT" "${args[@]}"
echo "burst started $started; telemetry arrives within minutes, then:" >&2
echo "  scripts/query-kql.sh --start $started --end $(date -u -d '+15 min' +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo '<end>') cycle-time" >&2
