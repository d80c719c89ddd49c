#!/usr/bin/env bash
# Sends a burst of orders into the deployed environment, reports the cycle time, then waits for the
# queues to drain and reports each queue's dead-letter count: "0 lost" in Azure means every order
# was stored or dead-lettered (with a reason), never silently gone.
# Usage: scripts/azure-burst.sh [--count 10000] [--subscription ID] [--drain-timeout 300] [--telemetry-wait 300]
#                               [--render-only | --dead-letters-only | --drain-only] [extra order-load run arguments...]
#
# The load tool schedules through a Dapr sidecar of its own that carries an Azure Service Bus
# component for the ingress queue (rendered into .dapr/azure-load/ from the azd environment):
# every order is bulk-published with one ScheduledEnqueueTimeUtc, so all become visible at the
# same instant, whatever component model the apps run. The sidecar and the load tool sign in as
# you (az login; Dapr's Azure auth falls back to the Azure CLI), and main.bicep gives
# AZURE_PRINCIPAL_ID send rights on q-order-ingress and access to the outboxes. Bulk publishes use
# the tier's byte budget (MAX_BULK_PUBLISH_BYTES, a deployment output), as the apps do.
# Before sending, the script refuses a trio not ready for a burst (scripts/wait-ready.sh, checked once: one
# line naming the app and why), then reads what is deployed (az): the model each app runs (Messaging__Model
# in the environment of its latest revision) and the chosen model's live component; it refuses the
# burst when they disagree with the azd environment's inputs (a failed or pending provision). The burst
# is labelled cold when an app's processes all started after the last burst this machine sent to the
# environment (a new revision, a scale from zero, a restart: its oldest replica is younger than that
# burst), or when no burst is recorded; warm otherwise. Each app's replica count is recorded at the
# scheduled instant and at the end, printed with the label, and kept in the burst's result (in
# results/azure-<env>/LOG.jsonl, the environment's history of bursts) with whether the apps run with tiered
# compilation: compare cycle times only among bursts of one model that started alike (label and replicas) and ran
# alike, which the script counts for you.
# The query window it prints is this machine's start and end moved into storage's time by the skew the
# load tool measured, widened by 60 s each side for the containers' clocks (docs/azure.md, "How the cycle
# time is measured"). After the burst the script prints the load tool's end (its last
# blob) beside scripts/kql/cycle-time.kql's end (the receivers' last OrdersStored event), waiting up to
# --telemetry-wait seconds for Application Insights to hold every stored order (0: no wait, no query).
# The load tool's result goes to results/azure-<env>/LOG.jsonl (LOG.md and the per-second series beside it). While
# it watches, it reads each queue's active messages every second (Azure Resource Manager: your Reader right on the
# namespace is enough) and keeps them in the result (and beside the series, .queues.csv).
# Then, from Azure Monitor's metrics over the same window (scripts/lib/azure-cost.sh), each app's CPU-seconds,
# peak memory and replica-minutes, the burst's cost at Container Apps prices (ACA_PRICE_VCPU_SECOND,
# ACA_PRICE_GIB_SECOND, USD) and whether each app's scaler added replicas while its queue held
# messages (or the system log's line why not). Then what the trio's telemetry and containers' lines put into Log
# Analytics over the window (scripts/kql/telemetry-volume.kql), items and MB per table, priced at
# LOG_ANALYTICS_PRICE_GB; not with --telemetry-wait 0. The burst's result keeps each app's cost and the telemetry's. Last, order-load report compares the environment's bursts in results/azure-<env>/report.md and
# report.png, the orders waiting per queue among them.
# --render-only writes the component and prints its folder, without running anything.
# --dead-letters-only prints each queue's dead-letter count now, without a burst.
# --drain-only waits for the queues to drain (active and scheduled messages), then prints the counts.
# A failing az call while draining or counting is reported in a line and the report goes on.
# Every az call names the subscription azd deployed to (AZURE_SUBSCRIPTION_ID). Runs on bash 3.2+.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Where the schedule record and the last burst's end are kept.
results="${AZURE_BURST_RESULTS:-$ROOT/results}"
# shellcheck source=lib/azure-queues.sh
. "$ROOT/scripts/lib/azure-queues.sh"
# shellcheck source=lib/azure-apps.sh
. "$ROOT/scripts/lib/azure-apps.sh"
# shellcheck source=lib/load-tool.sh
. "$ROOT/scripts/lib/load-tool.sh"
# shellcheck source=lib/az-extensions.sh
. "$ROOT/scripts/lib/az-extensions.sh"
# shellcheck source=lib/burst-cycle.sh
. "$ROOT/scripts/lib/burst-cycle.sh"
# shellcheck source=lib/template.sh
. "$ROOT/scripts/lib/template.sh"
# The queue each app's scale rule reads (scripts/lib/azure-cost.sh reads it).
# shellcheck disable=SC2034
APP_QUEUES="distributor=q-order-ingress receiver-express=q-order-express receiver-standard=q-order-standard"
# shellcheck source=lib/azure-cost.sh
. "$ROOT/scripts/lib/azure-cost.sh"

usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; }
count=10000
mode=burst
drain_timeout=300
telemetry_wait=300
subscription=""
args=()
need_value() { [[ $# -ge 2 ]] || { echo "$1 needs a value" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --count) need_value "$@"; count="$2"; shift 2 ;;
    --subscription) need_value "$@"; subscription="$2"; shift 2 ;;
    --drain-timeout) need_value "$@"; drain_timeout="$2"; shift 2 ;;
    --telemetry-wait) need_value "$@"; telemetry_wait="$2"; shift 2 ;;
    --render-only) mode=render; shift ;;
    --dead-letters-only) mode=dead-letters; shift ;;
    --drain-only) mode=drain; shift ;;
    -h|--help) usage; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
for number in "$count" "$drain_timeout" "$telemetry_wait"; do
  [[ "$number" =~ ^[0-9]+$ ]] || { echo "not a number: $number" >&2; exit 2; }
done

if [[ -z "${SERVICEBUS_NAMESPACE_FQDN:-}" ]]; then
  eval "$(azd env get-values)"
fi
: "${SERVICEBUS_NAMESPACE_FQDN:?not in the azd environment: run azd provision first}"
: "${STORAGE_BLOB_ENDPOINT:?not in the azd environment}"
while read -r old; do
  if [[ -n "${!old:-}" ]]; then
    echo "$old is no longer read: set MESSAGING_MODEL (bindings, pubsub-single or pubsub-bulk) and unset $old (azd env unset $old)" >&2; exit 2
  fi
done < <(awk -F'\t' '$1 == "variable" && $3 == "MESSAGING_MODEL" { print $2 }' "$ROOT/src/OrderDistribution.ServiceDefaults/renamed-settings.tsv")
model="${MESSAGING_MODEL:-pubsub-bulk}"

az_error="$(mktemp)"
trap 'rm -f "$az_error" "$az_error".*' EXIT

needs_management() {
  : "${AZURE_RESOURCE_GROUP:?not in the azd environment: run azd provision first}"
  : "${SERVICEBUS_NAMESPACE:?not in the azd environment: run azd provision first}"
  subscription="${subscription:-${AZURE_SUBSCRIPTION_ID:-}}"
  if [[ -z "$subscription" ]]; then
    echo "no subscription: give --subscription or run azd provision (AZURE_SUBSCRIPTION_ID)" >&2; exit 2
  fi
}

case "$mode" in
  dead-letters) needs_management; report_dead_letters "" "$(dead_letter_snapshot)" || exit 1; exit 0 ;;
  drain)
    needs_management; status=0
    drain_queues "$drain_timeout" || status=1
    report_dead_letters "" "$(dead_letter_snapshot)" || status=1
    exit "$status" ;;
esac

components="$ROOT/.dapr/azure-load"
mkdir -p "$components"
render_template "$ROOT/scripts/templates/azure-load/order-pubsub.yaml" SERVICEBUS_NAMESPACE_FQDN > "$components/order-pubsub.yaml"
if [[ "$mode" == render ]]; then echo "$components"; exit 0; fi

needs_management
: "${AZURE_CONTAINER_APPS_ENVIRONMENT_NAME:?not in the azd environment: run azd provision first}"
check_deployed_model "$model"
burst_record="$results/azure-last-burst-${AZURE_ENV_NAME:-default}.txt"
start_label=()
start="as given"
case " ${args[*]-} " in
  *" --start "*) ;;
  *) start="$(burst_start "$burst_record")" || exit 1; start_label=(--start "$start") ;;
esac
# The load tool appends the burst's result here (unless the extra arguments name another file), and the script keeps
# what Azure said of the burst in it. One file per environment, apart from the local runs' results/LOG.jsonl:
# order-load report compares the models of what it reads.
results_file="$results/azure-${AZURE_ENV_NAME:-default}/LOG.jsonl"
results_option=(--results "$results_file")
given=""
for arg in ${args[@]+"${args[@]}"}; do
  if [[ "$given" == --results ]]; then results_file="$arg"; results_option=(); fi
  given="$arg"
done
command -v dapr >/dev/null 2>&1 || { echo "The Dapr CLI is not installed: see docs/local-run.md." >&2; exit 1; }
dotnet build -c Release "$ROOT/src/OrderDistribution.LoadTool/OrderDistribution.LoadTool.csproj"

budget=()
if [[ -n "${MAX_BULK_PUBLISH_BYTES:-}" ]]; then budget=(--max-bulk-bytes "$MAX_BULK_PUBLISH_BYTES"); fi

before="$(dead_letter_snapshot)"
echo "burst: $count orders, model $model, namespace $SERVICEBUS_NAMESPACE_FQDN" >&2
started="$(date -u +%s)"
# The load tool records the scheduled instant (in storage's time) here; the cycle-time query measures from it.
schedule_record="$results/azure-last-schedule.json"
rm -f "$schedule_record"
status=0
# Every app's replica count at the scheduled instant, taken beside the load tool (its own az error file).
load_done="$az_error.done"; at_instant="$az_error.at-instant"
# shellcheck disable=SC2030 # the sampler's own error file, in its subshell alone
( az_error="$az_error.replicas"; replicas_at_instant "$schedule_record" "$load_done" "$at_instant" ) &
sampler=$!
dapr run --app-id order-load --dapr-http-port 3599 --resources-path "$components" -- \
  dotnet "$load_tool_dll" run --target azure --count "$count" --model "$model" \
  --storage-account-url "$STORAGE_BLOB_ENDPOINT" --state "$schedule_record" \
  --servicebus-namespace-id "$(servicebus_namespace_id)" \
  ${start_label[@]+"${start_label[@]}"} ${results_option[@]+"${results_option[@]}"} \
  ${budget[@]+"${budget[@]}"} ${args[@]+"${args[@]}"} || status=$?
replicas_end="$(replica_counts)"
touch "$load_done"
wait "$sampler" || true
replicas_start="$(cat "$at_instant" 2>/dev/null || true)"
# 5: refused, another burst holds the store (the load tool said whose): this one sent nothing, so there
# is nothing of it to drain, count or record.
if [[ $status -eq 5 ]]; then exit 5; fi

drain_queues "$drain_timeout" || status=$(( status == 0 ? 1 : status ))
report_dead_letters "$before" "$(dead_letter_snapshot)" || status=$(( status == 0 ? 1 : status ))

ended="$(date -u +%s)"
# Seconds to the instant (past now), the instant and the skew from the schedule record, the query window and the end in
# storage's time, and the load tool's cycle, count and missing from its result ("-" for what is not known).
reading="$(order_load azure-burst read --state "$schedule_record" --results "$results_file" \
  --started "$started" --ended "$ended")" || exit 1
read -r _ scheduled_at skew window_start window_end last_burst tool_cycle tool_count tool_missing <<<"$reading"
scheduled_at="${scheduled_at#-}"
# The processes that took this burst are warm for the next one.
mkdir -p "$(dirname "$burst_record")"
echo "$last_burst" > "$burst_record"
echo "start: $start; tiered compilation: $tiered_compilation; replicas at the scheduled instant: ${replicas_start:-(not recorded)}; at the end: $replicas_end"
echo "burst scheduled for ${scheduled_at:-(not recorded)} (storage's clock, ${skew} s ahead of this machine's)"
if [[ -n "$scheduled_at" ]]; then
  compare_ends "$scheduled_at" "$window_start" "$window_end" "$tool_cycle" "$tool_count" "$tool_missing" "$telemetry_wait" ||
    exit 1
fi
# After the telemetry wait: Azure Monitor's metrics arrive minutes behind too.
app_costs=()
report_scaling_and_read_costs "$window_start" "$window_end" || true
telemetry=()
if [[ "$telemetry_wait" -gt 0 ]]; then
  telemetry_rows=""
  if report_telemetry "$window_start" "$window_end"; then telemetry=(--telemetry-volume "$telemetry_rows"); fi
else
  echo "telemetry, Log Analytics: not queried (--telemetry-wait 0)"
fi
# Each app's and the telemetry's cost, kept in the burst's result with the replicas; how many earlier bursts compare.
order_load azure-burst record --state "$schedule_record" --results "$results_file" --count "$count" \
  --replicas-at-instant "$replicas_start" --replicas-at-end "$replicas_end" --tiered-compilation "$tiered_compilation" \
  --prices "$ROOT/container-apps-prices.env" ${app_costs[@]+"${app_costs[@]}"} ${telemetry[@]+"${telemetry[@]}"} ||
  status=$(( status == 0 ? 1 : status ))
# The environment's bursts compared beside their results: each model's times and where its last warm burst waited.
if [[ -s "$results_file" ]]; then
  order_load report "$results_file" || echo "report: order-load report could not compare the bursts in $results_file" >&2
fi
echo "the queries for this burst:" >&2
echo "  scripts/query-kql.sh --start $window_start --end $window_end${scheduled_at:+ --scheduled-at $scheduled_at} cycle-time retry-drop publish-errors" >&2
exit "$status"
