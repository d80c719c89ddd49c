#!/usr/bin/env bash
# Sends a burst of orders into the deployed environment, reports the cycle time, then waits for the
# queues to drain and reports each queue's dead-letter count: "0 lost" in Azure means every order
# was stored or dead-lettered (with a reason), never silently gone.
# Usage: scripts/azure-burst.sh [--count 10000] [--subscription ID] [--drain-timeout 300]
#                               [--render-only | --dead-letters-only | --drain-only] [extra order-load run arguments...]
#
# The load tool schedules through a Dapr sidecar of its own that carries an Azure Service Bus
# component for the ingress queue (rendered into .dapr/azure-load/ from the azd environment):
# every order is bulk-published with one ScheduledEnqueueTimeUtc, so all become visible at the
# same instant, whatever component model the apps run. The sidecar and the load tool sign in as
# you (az login; Dapr's Azure auth falls back to the Azure CLI), and main.bicep gives
# AZURE_PRINCIPAL_ID send rights on q-order-ingress and access to the outboxes. Bulk publishes use
# the tier's byte budget (MAX_BULK_PUBLISH_BYTES, a deployment output), as the apps do.
# --render-only writes the component and prints its folder, without running anything.
# --dead-letters-only prints each queue's dead-letter count now, without a burst.
# --drain-only waits for the queues to drain (active and scheduled messages), then prints the counts.
# A failing az call while draining or counting is reported in a line and the report goes on.
# Every az call names the subscription azd deployed to (AZURE_SUBSCRIPTION_ID). Runs on bash 3.2+.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
QUEUES="q-order-ingress q-order-express q-order-standard"

usage() { sed -n '2,22p' "$0"; }

count=10000
render_only=false
dead_letters_only=false
drain_only=false
drain_timeout=300
subscription=""
args=()
need_value() { [[ $# -ge 2 ]] || { echo "$1 needs a value" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) need_value "$@"; count="$2"; shift 2 ;;
    --subscription) need_value "$@"; subscription="$2"; shift 2 ;;
    --drain-timeout) need_value "$@"; drain_timeout="$2"; shift 2 ;;
    --render-only) render_only=true; shift ;;
    --dead-letters-only) dead_letters_only=true; shift ;;
    --drain-only) drain_only=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
for number in "$count" "$drain_timeout"; do
  [[ "$number" =~ ^[0-9]+$ ]] || { echo "not a number: $number" >&2; exit 2; }
done

if [[ -z "${SERVICEBUS_NAMESPACE_FQDN:-}" ]]; then
  eval "$(azd env get-values)"
fi
: "${SERVICEBUS_NAMESPACE_FQDN:?not in the azd environment: run azd provision first}"
: "${STORAGE_BLOB_ENDPOINT:?not in the azd environment}"
model="${DAPR_COMPONENTS_MODEL:-pubsub}"
mode="${DAPR_PUBSUB_MODEL:-bulk}"

az_error="$(mktemp)"
trap 'rm -f "$az_error"' EXIT

# One queue's countDetails fields, tab-separated (management plane: your az login needs read
# access to the namespace). Status 1, with az's first error line on stderr, when az fails.
queue_counts() { # QUEUE FIELD...
  local queue="$1" fields
  shift
  fields="$(printf 'countDetails.%s,' "$@")"
  if ! az servicebus queue show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
    --namespace-name "$SERVICEBUS_NAMESPACE" --name "$queue" --query "[${fields%,}]" -o tsv 2>"$az_error"; then
    echo "az could not read $queue: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
    return 1
  fi
}

# Messages still to be delivered on one queue: active and scheduled ones (a scheduled burst waits
# as scheduled messages until its instant).
messages_left() { # QUEUE -> count
  local counts
  counts="$(queue_counts "$1" activeMessageCount scheduledMessageCount)" || return 1
  [[ "$counts" =~ ^([0-9]+)[[:space:]]+([0-9]+)$ ]] || { echo "az answered no counts for $1: $counts" >&2; return 1; }
  printf '%s\n' "$((BASH_REMATCH[1] + BASH_REMATCH[2]))"
}

# All dead-letter counts, "queue=count" separated by spaces; "queue=?" where az failed.
dead_letter_snapshot() {
  local queue count snapshot=""
  for queue in $QUEUES; do
    count="$(queue_counts "$queue" deadLetterMessageCount)" && [[ "$count" =~ ^[0-9]+$ ]] || count="?"
    snapshot="$snapshot $queue=$count"
  done
  printf '%s\n' "${snapshot# }"
}

count_in() { # QUEUE SNAPSHOT -> count
  local entry
  for entry in $2; do
    if [[ "${entry%%=*}" == "$1" ]]; then printf '%s\n' "${entry#*=}"; return; fi
  done
  printf '0\n'
}

report_dead_letters() { # BEFORE AFTER: prints each queue's new dead letters; status 1 when one is unknown
  local queue before after new total=0 unknown=0
  for queue in $QUEUES; do
    before="$(count_in "$queue" "$1")"; after="$(count_in "$queue" "$2")"
    if [[ "$before" == "?" || "$after" == "?" ]]; then
      echo "dead-lettered: $queue unknown (az failed, see above)"; unknown=1; continue
    fi
    new=$((after - before)); total=$((total + new))
    echo "dead-lettered: $queue $new (now $after in its dead-letter queue)"
  done
  echo "dead-lettered in this burst: $total$( [[ $unknown -eq 0 ]] || echo ' (and the queues az could not read)')"
  if [[ $total -gt 0 ]]; then
    echo "  each carries DeadLetterReason / DeadLetterErrorDescription: read them in the portal's Service Bus Explorer (dead-letter tab)"
  fi
  return "$unknown"
}

# Orders that are neither stored nor dead-lettered yet are still on a queue (poison orders go
# through maxDeliveryCount deliveries first): wait until every queue is empty. Status 1 when the
# queues did not drain in time or could not be read; the caller reports the dead letters anyway.
drain_queues() {
  local waited=0 left queue count unread
  while :; do
    left=0; unread=""
    for queue in $QUEUES; do
      if count="$(messages_left "$queue")"; then left=$((left + count)); else unread="$unread $queue"; fi
    done
    [[ -z "$unread" && $left -eq 0 ]] && return 0
    [[ $waited -ge $drain_timeout ]] && break
    echo "waiting for $left messages still on the queues${unread:+ (not read:$unread)} ($waited s of $drain_timeout s)" >&2
    sleep 10; waited=$((waited + 10))
  done
  echo "still on the queues after $drain_timeout s: $left messages (active and scheduled)${unread:+; could not read$unread}" >&2
  return 1
}

# The schedule record's ScheduledAt as a UTC instant (2026-11-24T10:00:00Z); empty without a record.
scheduled_instant() { # RECORD
  [[ -f "$1" ]] || return 0
  sed -nE 's/.*"ScheduledAt":"([0-9T:.-]+)(Z|\+00:00)".*/\1Z/p' "$1"
}

needs_management() {
  : "${AZURE_RESOURCE_GROUP:?not in the azd environment: run azd provision first}"
  : "${SERVICEBUS_NAMESPACE:?not in the azd environment: run azd provision first}"
  subscription="${subscription:-${AZURE_SUBSCRIPTION_ID:-}}"
  if [[ -z "$subscription" ]]; then
    echo "no subscription: give --subscription or run azd provision (AZURE_SUBSCRIPTION_ID)" >&2; exit 2
  fi
}

if $dead_letters_only; then
  needs_management
  report_dead_letters "" "$(dead_letter_snapshot)" || exit 1
  exit 0
fi

if $drain_only; then
  needs_management
  status=0
  drain_queues || status=1
  report_dead_letters "" "$(dead_letter_snapshot)" || status=1
  exit "$status"
fi

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
    # No maxBulkPubBytes: the component reads it from each bulk publish request, where the load
    # tool puts its --max-bulk-bytes.
scopes:
  - order-load
YAML
if $render_only; then echo "$components"; exit 0; fi

needs_management
command -v dapr >/dev/null 2>&1 || { echo "The Dapr CLI is not installed: see docs/local-run.md." >&2; exit 1; }
dotnet build -c Release "$ROOT/src/OrderDistribution.LoadTool/OrderDistribution.LoadTool.csproj"

budget=()
if [[ -n "${MAX_BULK_PUBLISH_BYTES:-}" ]]; then budget=(--max-bulk-bytes "$MAX_BULK_PUBLISH_BYTES"); fi

before="$(dead_letter_snapshot)"
echo "burst: $count orders, model $model ($mode), namespace $SERVICEBUS_NAMESPACE_FQDN" >&2
started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
# The load tool records the scheduled instant (in storage's time) here; the cycle-time query measures from it.
schedule_record="$ROOT/results/azure-last-schedule.json"
rm -f "$schedule_record"
status=0
dapr run --app-id order-load --dapr-http-port 3599 --resources-path "$components" -- \
  dotnet run --project "$ROOT/src/OrderDistribution.LoadTool" -c Release --no-build -- \
  run --target azure --count "$count" --model "$model" --pubsub-mode "$mode" \
  --storage-account-url "$STORAGE_BLOB_ENDPOINT" --state "$schedule_record" \
  ${budget[@]+"${budget[@]}"} ${args[@]+"${args[@]}"} || status=$?

drain_queues || status=$(( status == 0 ? 1 : status ))
report_dead_letters "$before" "$(dead_letter_snapshot)" || status=$(( status == 0 ? 1 : status ))

ended="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
scheduled_at="$(scheduled_instant "$schedule_record")"
echo "burst started $started, scheduled for ${scheduled_at:-(not recorded)}; telemetry arrives within minutes, then:" >&2
echo "  scripts/query-kql.sh --start $started --end $ended${scheduled_at:+ --scheduled-at $scheduled_at} cycle-time retry-drop publish-errors" >&2
exit "$status"
