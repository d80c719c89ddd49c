#!/usr/bin/env bash
# Sends a burst of orders into the deployed environment and reports the cycle time.
# Usage: scripts/azure-burst.sh [--count 10000] [--render-only] [extra order-load run arguments...]
#
# The load tool schedules through a Dapr sidecar of its own that carries an Azure Service Bus
# component for the ingress queue (rendered into .dapr/azure-load/ from the azd environment):
# every order is bulk-published with one ScheduledEnqueueTimeUtc, so all become visible at the
# same instant, whatever component model the apps run. The sidecar and the load tool sign in as
# you (az login; Dapr's Azure auth falls back to the Azure CLI), and main.bicep gives
# AZURE_PRINCIPAL_ID send rights on q-order-ingress and access to the outboxes.
# --render-only writes the component and prints its folder, without running anything.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

count=10000
render_only=false
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --render-only) render_only=true; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done

if [[ -z "${SERVICEBUS_NAMESPACE_FQDN:-}" ]]; then
  eval "$(azd env get-values)"
fi
: "${SERVICEBUS_NAMESPACE_FQDN:?not in the azd environment: run azd provision first}"
: "${STORAGE_BLOB_ENDPOINT:?not in the azd environment}"
model="${DAPR_COMPONENTS_MODEL:-pubsub}"
mode="${DAPR_PUBSUB_MODEL:-bulk}"

components="$ROOT/.dapr/azure-load"
mkdir -p "$components"
cat > "$components/order-pubsub.yaml" <<YAML
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: order-pubsub
spec:
  type: pubsub.azure.servicebus.queues
  version: v1
  metadata:
    - name: namespaceName
      value: ${SERVICEBUS_NAMESPACE_FQDN}
    # The queues exist (Bicep made them); you need no rights to manage them.
    - name: disableEntityManagement
      value: "true"
    - name: maxBulkPubBytes
      value: "131072"
scopes:
  - order-load
YAML
if $render_only; then echo "$components"; exit 0; fi

command -v dapr >/dev/null 2>&1 || { echo "The Dapr CLI is not installed: see docs/local-run.md." >&2; exit 1; }
dotnet build -c Release "$ROOT/src/OrderDistribution.LoadTool/OrderDistribution.LoadTool.csproj"

echo "burst: $count orders, model $model ($mode), namespace $SERVICEBUS_NAMESPACE_FQDN" >&2
started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
dapr run --app-id order-load --dapr-http-port 3599 --resources-path "$components" -- \
  dotnet run --project "$ROOT/src/OrderDistribution.LoadTool" -c Release --no-build -- \
  run --target azure --count "$count" --model "$model" --pubsub-mode "$mode" \
  --storage-account-url "$STORAGE_BLOB_ENDPOINT" "${args[@]}"
echo "burst started $started; telemetry arrives within minutes, then:" >&2
echo "  scripts/query-kql.sh --start $started --end $(date -u -d '+15 min' +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo '<end>') cycle-time" >&2
