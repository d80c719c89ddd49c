# shellcheck shell=bash
# Sourced by scripts/azure-burst.sh: what a burst cost and whether each app's scaler acted, from Azure Monitor's
# metrics over the burst's window (one-minute grain, minutes behind real time). Needs the burst script's
# subscription, AZURE_RESOURCE_GROUP, SERVICEBUS_NAMESPACE, az_error and an app=queue list in APP_QUEUES, and
# az-extensions.sh and azure-queues.sh.
#
# What each app used and cost, and the burst's total, order-load azure-burst record works out, prices and keeps in
# the burst's result (docs/load-tool.md, "azure-burst"; docs/azure.md, "What a burst costs").

# What the revision's system log says when KEDA's scaler fails (a refused identity, a missing right).
SCALER_ERRORS='keda|scaler|scaledobject|unauthorized|forbidden'
NO_SCALER_LINE="no scaler line in the revision's system log (az containerapp logs show --type system)"

# One metric of one resource over the window, one value per replica-minute (or per minute), one per line.
# shellcheck disable=SC2154 # subscription and az_error are the burst script's
metric_values() { # RESOURCE-ID METRIC AGGREGATION FILTER START END
  az monitor metrics list --subscription "$subscription" --resource "$1" --metric "$2" --aggregation "$3" \
    --interval PT1M --filter "$4" --start-time "$5" --end-time "$6" \
    --query "value[0].timeseries[].data[] | [?$(tr '[:upper:]' '[:lower:]' <<<"$3") != null].$(tr '[:upper:]' '[:lower:]' <<<"$3")" \
    -o tsv 2>"$az_error"
}

# Per app: its allocated size, UsageNanoCores (CPU-seconds used) and WorkingSetBytes (peak memory) over the window,
# kept in the array app_costs as order-load azure-burst record takes them; then whether each app scaled past one
# replica while its queue held messages. Prints lines. Status 1 when az failed.
# shellcheck disable=SC2154 # APP_QUEUES is the burst script's
report_scaling_and_read_costs() { # START END
  local app queue id cpu memory sizes used peak failed=0
  local namespace_id most_replicas most_messages why
  namespace_id="$(servicebus_namespace_id)"
  app_costs=()
  for pair in $APP_QUEUES; do
    app="${pair%%=*}"; queue="${pair#*=}"
    if ! sizes="$(az containerapp show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$app" \
      --query "[id, properties.template.containers[0].resources.cpu, properties.template.containers[0].resources.memory]" \
      -o tsv 2>"$az_error" | tr '\n' '\t')"; then
      echo "cost, $app: az failed: $(grep -m1 . "$az_error" || echo 'no error text')"; failed=1; continue
    fi
    IFS=$'\t' read -r id cpu memory <<<"$sizes"
    if [[ -z "$cpu" || -z "$memory" ]]; then
      echo "cost, $app: az stated no allocated size (resources.cpu and resources.memory)"; failed=1
    elif ! used="$(metric_values "$id" UsageNanoCores Average "replicaName eq '*'" "$1" "$2")" ||
      ! peak="$(metric_values "$id" WorkingSetBytes Maximum "replicaName eq '*'" "$1" "$2")"; then
      echo "cost, $app: az could not read its metrics: $(grep -m1 . "$az_error" || echo 'no error text')"; failed=1
    else
      app_costs+=(--app "$app" --cpu "$cpu" --memory "$memory" --usage-nanocores "$used" --working-set-bytes "$peak")
    fi
    # The scaler: replicas beside the messages its queue held, minute by minute.
    if ! most_replicas="$(metric_values "$id" Replicas Maximum "" "$1" "$2" | sort -n | tail -n 1)" ||
      ! most_messages="$(metric_values "$namespace_id" ActiveMessages Maximum "EntityName eq '$queue'" "$1" "$2" |
        awk '$1 + 0 > top { top = $1 + 0 } END { printf "%d\n", top }')"; then
      echo "scaler, $app: az could not read its metrics: $(grep -m1 . "$az_error" || echo 'no error text')"; failed=1; continue
    fi
    most_replicas="${most_replicas%%.*}"
    if (( ${most_replicas:-0} > 1 )); then
      echo "scaler, $app: scaled to $most_replicas replicas while $queue held up to $most_messages messages"
    elif (( most_messages > 0 )); then
      why="$(az containerapp logs show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$app" \
        --type system --tail 300 --format text 2>"$az_error" | grep -Ei "$SCALER_ERRORS" | tail -n 1 | cut -c1-200)"
      echo "scaler, $app: stayed at ${most_replicas:-?} replica while $queue held up to $most_messages messages: ${why:-$NO_SCALER_LINE}"
    else
      echo "scaler, $app: ${most_replicas:-?} replica; $queue held no messages in a whole minute of the window"
    fi
  done
  return "$failed"
}

# What the burst's telemetry and the containers' lines put into Log Analytics: scripts/kql/telemetry-volume.kql over
# the window, its rows kept in telemetry_rows for order-load azure-burst record, which prices them per GB ingested.
# Status 1 (and a line) when they could not be read.
report_telemetry() { # START END
  if [[ -z "${LOG_ANALYTICS_WORKSPACE_ID:-}" ]]; then
    echo "telemetry, Log Analytics: not read (no LOG_ANALYTICS_WORKSPACE_ID in the azd environment: run azd provision)"
    return 1
  fi
  ensure_extension log-analytics
  # shellcheck disable=SC2034 # telemetry_rows is the burst script's
  if ! telemetry_rows="$(az monitor log-analytics query --subscription "$subscription" --workspace "$LOG_ANALYTICS_WORKSPACE_ID" \
    --analytics-query "$(cat "$ROOT/scripts/kql/telemetry-volume.kql")" --timespan "$1/$2" \
    --query "[].[Table, Items, BilledBytes]" -o tsv 2>"$az_error")"; then
    echo "telemetry, Log Analytics: az could not query it: $(grep -m1 . "$az_error" || echo 'no error text')"; return 1
  fi
}
