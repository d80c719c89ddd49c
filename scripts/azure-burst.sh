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
# scheduled instant and at the end, printed with the label, and kept in results/azure-bursts-<env>.tsv:
# compare cycle times only among bursts of one model that started alike (label and replicas), which
# the script counts for you.
# Clocks: the scheduled instant is in storage's clock (the load tool measured this machine's clock
# against storage's Date header and scheduled in that time; Service Bus applies it by its own clock,
# which is not measured); the load tool's end of the cycle is the receivers' stored time (their
# containers' clocks, else storage's Last-Modified); the KQL cycle time ends at the requests'
# timestamps (the containers' clocks). The query window it prints is this machine's start and end
# moved by the skew the load tool measured (ClockSkewSeconds), widened by WINDOW_MARGIN seconds each
# side for the containers' clocks. After the burst the script prints the load tool's end (its last
# blob) beside scripts/kql/cycle-time.kql's end (the receivers' last OrdersStored event), waiting up to
# --telemetry-wait seconds for Application Insights to hold every stored order (0: no wait, no query).
# Then, from Azure Monitor's metrics over the same window (scripts/azure-burst-cost.sh), each app's CPU-seconds,
# peak memory and replica-minutes, the burst's cost at Container Apps prices (ACA_PRICE_VCPU_SECOND,
# ACA_PRICE_GIB_SECOND, USD) and whether each app's scaler added replicas while its queue held
# messages (or the system log's line why not); the history keeps CPU-seconds, peak MiB and cost.
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
QUEUES="q-order-ingress q-order-express q-order-standard"

usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; }
APPS="distributor receiver-express receiver-standard"
# The queue each app's scale rule reads (scripts/azure-burst-cost.sh reads it).
# shellcheck disable=SC2034
APP_QUEUES="distributor=q-order-ingress receiver-express=q-order-express receiver-standard=q-order-standard"
# shellcheck source=scripts/azure-burst-cost.sh disable=SC1091
. "$ROOT/scripts/azure-burst-cost.sh"
WINDOW_MARGIN=60

count=10000
render_only=false
dead_letters_only=false
drain_only=false
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
    --render-only) render_only=true; shift ;;
    --dead-letters-only) dead_letters_only=true; shift ;;
    --drain-only) drain_only=true; shift ;;
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

# Epoch seconds as a UTC instant, with GNU date or BSD date (macOS).
iso_of_epoch() { # SECONDS
  date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$1" +%Y-%m-%dT%H:%M:%SZ
}

# Whole seconds storage's clock was ahead of this machine's when scheduling (the record's
# ClockSkewSeconds, cut to whole seconds: the window's margin covers the rest); 0 without one.
clock_skew_seconds() { # RECORD
  local skew=""
  [[ -f "$1" ]] && skew="$(sed -nE 's/.*"ClockSkewSeconds":(-?[0-9]+)([.][0-9]+)?([eE]-?[0-9]+)?[,}].*/\1\3/p' "$1")"
  # An exponent means a tiny or huge number: below one second when negative.
  case "$skew" in
    ''|*[eE]-*) echo 0 ;;
    *[eE]*) echo "error: clock skew ${skew} in $1 is not a skew a query window can take" >&2; return 1 ;;
    *) echo "$skew" ;;
  esac
}

# The revision an app runs: its latest one (scripts/wait-ready.sh has found it ready). Status 1, with the
# reason on stderr, when az fails.
latest_revision() { # APP -> revision name
  if ! az containerapp show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$1" \
    --query "properties.latestRevisionName" -o tsv 2>"$az_error"; then
    echo "az could not read $1: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
    return 1
  fi
}

# One setting of an app's revision (its container's environment), as deployed.
deployed_setting() { # APP REVISION NAME
  if ! az containerapp revision show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$1" \
    --revision "$2" --query "properties.template.containers[0].env[?name=='$3'].value | [0]" -o tsv 2>"$az_error"; then
    echo "az could not read revision $2 of $1: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
    return 1
  fi
}

# Each app's replica count now, "app=count" separated by spaces; "app=?" where az failed.
replica_counts() {
  local app count snapshot=""
  for app in $APPS; do
    count="$(az containerapp replica list --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
      --name "$app" --query "length(@)" -o tsv 2>"$az_error")" && [[ "$count" =~ ^[0-9]+$ ]] || count="?"
    snapshot="$snapshot $app=$count"
  done
  printf '%s\n' "${snapshot# }"
}

# UTC instant (2026-11-24T10:00:00Z) as epoch seconds, with GNU date or BSD date (macOS).
epoch_of_iso() { # INSTANT
  date -u -d "$1" +%s 2>/dev/null || date -u -j -f '%Y-%m-%dT%H:%M:%SZ' "$1" +%s
}

# Waits for the load tool's schedule record (or for DONE to exist), then for its instant by this
# machine's clock (the record's instant is in storage's time: minus the skew), and writes every app's
# replica count then to OUT. Runs beside the load tool.
replicas_at_instant() { # RECORD DONE OUT
  local at skew due now
  while [[ ! -s "$1" && ! -e "$2" ]]; do sleep 1; done
  at="$(scheduled_instant "$1")"
  [[ -n "$at" ]] || return 0
  skew="$(clock_skew_seconds "$1")" && due="$(epoch_of_iso "${at:0:19}Z")" || return 0
  now="$(date -u +%s)"
  if (( due - skew > now )); then sleep $((due - skew - now)); fi
  replica_counts > "$3"
}

# The load tool's row for the burst scheduled at INSTANT in its results log: "cycle-seconds count missing".
load_tool_result() { # LOG INSTANT
  [[ -f "$1" ]] || return 0
  awk -F'|' -v at="${2:0:19}" '
    { for (i = 2; i <= 8; i++) gsub(/^[ \t]+|[ \t]+$/, "", $i) }
    $2 == at { row = $5 " " $4 " " $7 }
    END { if (row != "") print row }' "$1"
}

# scripts/kql/cycle-time.kql's "(burst)" row for the burst: "cycle-seconds stored-orders last-stored".
query_end() { # INSTANT START END
  local query
  query="$(cat "$ROOT/scripts/kql/cycle-time.kql")"
  query="${query/"let scheduledAt = datetime(null);"/"let scheduledAt = datetime($1);"}"
  az monitor app-insights query --subscription "$subscription" --app "${APPLICATIONINSIGHTS_NAME:-}" \
    --resource-group "$AZURE_RESOURCE_GROUP" --analytics-query "$query" --start-time "$2" --end-time "$3" \
    --query "tables[0].rows[?[0]=='(burst)'] | [0] | join(' ', [to_string([1]), to_string([2]), to_string([3])])" -o tsv 2>"$az_error"
}

# Prints the load tool's end of the cycle beside the query's, waiting up to --telemetry-wait seconds
# for Application Insights to hold as many stored orders as the load tool found.
compare_ends() { # INSTANT START END
  local tool_cycle="-" count=0 missing=0 stored query_cycle="-" query_stored=0 last_stored="-" row waited=0
  read -r tool_cycle count missing <<<"$(load_tool_result "$load_tool_log" "$1")"
  stored=$(( ${count:-0} - ${missing:-0} ))
  echo "cycle end, load tool (last blob's storedat):          ${tool_cycle:--} s after the instant, $stored orders stored"
  if [[ $telemetry_wait -eq 0 ]]; then
    echo "cycle end, cycle-time.kql (last OrdersStored event): not queried (--telemetry-wait 0)"; return 0
  fi
  while :; do
    if ! row="$(query_end "$1" "$2" "$3")"; then
      echo "cycle end, cycle-time.kql (last OrdersStored event): az failed: $(grep -m1 . "$az_error" || echo 'no error text')"; return 0
    fi
    read -r query_cycle query_stored last_stored <<<"$row"
    [[ "${query_stored:-}" =~ ^[0-9]+$ ]] || query_stored=0
    # Telemetry arrives within minutes: wait until it holds what the load tool found stored.
    if [[ $query_stored -gt 0 && $query_stored -ge $stored ]] || [[ $waited -ge $telemetry_wait ]]; then break; fi
    echo "waiting for telemetry: Application Insights holds $query_stored of $stored stored orders ($waited s of $telemetry_wait s)" >&2
    sleep 30; waited=$((waited + 30))
  done
  echo "cycle end, cycle-time.kql (last OrdersStored event): ${query_cycle:--} s after the instant, $query_stored orders stored (last at ${last_stored:--})"
}

# Refuses (exit 1) when what runs in Azure is not the model the azd environment names: a burst
# labelled with the inputs would then measure another model.
check_deployed_model() {
  local app revision deployed_model wrong="" live scopes ready
  # What azd's postdeploy hook waited for: refused in one line (the app and why) until then.
  if ! ready="$(AZURE_SUBSCRIPTION_ID="$subscription" AZURE_RESOURCE_GROUP="$AZURE_RESOURCE_GROUP" \
    sh "$ROOT/scripts/wait-ready.sh" --timeout 0)"; then
    echo "refusing the burst: $ready" >&2; exit 1
  fi
  for app in $APPS; do
    revision="$(latest_revision "$app")" || exit 1
    deployed_model="$(deployed_setting "$app" "$revision" Messaging__Model)" || exit 1
    if [[ "$deployed_model" != "$model" ]]; then
      wrong="$wrong $app=${deployed_model:-none}"
    fi
  done
  # The chosen model's live component: scoped to the distributor (the other model's were removed).
  live="order-pubsub"; [[ "$model" == "bindings" ]] && live="q-order-ingress-input"
  if ! scopes="$(az containerapp env dapr-component show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
    --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" --dapr-component-name "$live" \
    --query "join(' ', properties.scopes || \`[]\`)" -o tsv 2>"$az_error")"; then
    wrong="$wrong component $live: $(grep -m1 . "$az_error" || echo 'not found')"
  elif [[ " $scopes " != *" distributor "* ]]; then
    wrong="$wrong component $live scoped to: ${scopes:-nothing}"
  fi
  if [[ -n "$wrong" ]]; then
    echo "refusing the burst: the azd environment says $model, but Azure runs:$wrong" >&2
    echo "  run azd provision (or azd up) to deploy what the azd environment says, or set it back (azd env set)." >&2
    exit 1
  fi
}

# cold or warm (see the top); the reasons go to stderr.
burst_start() {
  local last app created
  last="$(cat "$burst_record" 2>/dev/null || true)"
  if [[ -z "$last" ]]; then
    echo "cold: no earlier burst to this environment is recorded in $burst_record" >&2; echo cold; return
  fi
  for app in $APPS; do
    if ! created="$(az containerapp replica list --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
      --name "$app" --query "min([].properties.createdTime)" -o tsv 2>"$az_error")"; then
      echo "az could not read the replicas of $app: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
      return 1
    fi
    # UTC instants compare as text once cut to seconds (az writes +00:00, the record Z).
    if [[ -z "$created" || "${created:0:19}" > "${last:0:19}" ]]; then
      echo "cold: $app's oldest replica started ${created:-(none running)}, after the last burst ended $last" >&2
      echo cold; return
    fi
  done
  echo "warm: every app's oldest replica started before the last burst ended $last" >&2
  echo warm
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
: "${AZURE_CONTAINER_APPS_ENVIRONMENT_NAME:?not in the azd environment: run azd provision first}"
check_deployed_model
burst_record="$results/azure-last-burst-${AZURE_ENV_NAME:-default}.txt"
start_label=()
start="as given"
case " ${args[*]-} " in
  *" --start "*) ;;
  *) start="$(burst_start)" || exit 1; start_label=(--start "$start") ;;
esac
# The load tool appends its row here (unless the extra arguments name another log); compare_ends reads it.
load_tool_log="$results/LOG.md"
results_option=(--results "$load_tool_log")
case " ${args[*]-} " in *" --results "*) results_option=(); load_tool_log="" ;; esac
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
  dotnet run --project "$ROOT/src/OrderDistribution.LoadTool" -c Release --no-build -- \
  run --target azure --count "$count" --model "$model" \
  --storage-account-url "$STORAGE_BLOB_ENDPOINT" --state "$schedule_record" \
  ${start_label[@]+"${start_label[@]}"} ${results_option[@]+"${results_option[@]}"} \
  ${budget[@]+"${budget[@]}"} ${args[@]+"${args[@]}"} || status=$?
replicas_end="$(replica_counts)"
touch "$load_done"
wait "$sampler" || true
replicas_start="$(cat "$at_instant" 2>/dev/null || true)"
# 5: refused, another burst holds the store (the load tool said whose): this one sent nothing, so there
# is nothing of it to drain, count or record.
if [[ $status -eq 5 ]]; then exit 5; fi

drain_queues || status=$(( status == 0 ? 1 : status ))
report_dead_letters "$before" "$(dead_letter_snapshot)" || status=$(( status == 0 ? 1 : status ))

ended="$(date -u +%s)"
scheduled_at="$(scheduled_instant "$schedule_record")"
skew="$(clock_skew_seconds "$schedule_record")" || exit 1
# The apps' telemetry is stamped by their containers' clocks: the window is this machine's start and
# end in storage's time, widened for the containers.
window_start="$(iso_of_epoch $((started + skew - WINDOW_MARGIN)))"
window_end="$(iso_of_epoch $((ended + skew + WINDOW_MARGIN)))"
# The processes that took this burst are warm for the next one.
mkdir -p "$(dirname "$burst_record")"
iso_of_epoch $((ended + skew)) > "$burst_record"
echo "start: $start; replicas at the scheduled instant: ${replicas_start:-(not recorded)}; at the end: $replicas_end"
# Bursts compare only with bursts of the same model that started alike.
history="$results/azure-bursts-${AZURE_ENV_NAME:-default}.tsv"
[[ -f "$history" ]] || printf 'scheduled_at\tmodel\tstart\treplicas_at_instant\treplicas_at_end\tcpu_seconds\tpeak_mib\tcost_usd\n' > "$history"
if [[ -z "$replicas_start" || "$replicas_start" == *"=?"* ]]; then
  echo "comparable earlier bursts: unknown (the replicas at the instant were not read); compare this burst with none"
else
  alike="$(awk -F'\t' -v m="$model" -v s="$start" -v r="$replicas_start" 'NR > 1 && $2 == m && $3 == s && $4 == r' "$history" | wc -l | tr -d ' ')"
  echo "comparable earlier bursts (model $model, start $start, same replicas at the instant): $alike, in $history"
fi
echo "burst scheduled for ${scheduled_at:-(not recorded)} (storage's clock, ${skew} s ahead of this machine's)"
if [[ -n "$scheduled_at" && -n "$load_tool_log" ]]; then
  compare_ends "$scheduled_at" "$window_start" "$window_end"
fi
# After the telemetry wait: Azure Monitor's metrics arrive minutes behind too.
BURST_COST_ROW="-	-	-"
report_cost_and_scaling "$window_start" "$window_end" "$count" || true
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${scheduled_at:--}" "$model" "$start" "${replicas_start:-?}" "$replicas_end" \
  "$BURST_COST_ROW" >> "$history"
echo "the queries for this burst:" >&2
echo "  scripts/query-kql.sh --start $window_start --end $window_end${scheduled_at:+ --scheduled-at $scheduled_at} cycle-time retry-drop publish-errors" >&2
exit "$status"
