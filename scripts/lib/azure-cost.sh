# shellcheck shell=bash
# Sourced by scripts/azure-burst.sh: what a burst cost and whether each app's scaler acted, from Azure Monitor's
# metrics over the burst's window (one-minute grain, minutes behind real time). Needs the burst script's
# subscription, AZURE_RESOURCE_GROUP, SERVICEBUS_NAMESPACE, az_error and an app=queue list in APP_QUEUES.
#
# Container Apps bills each replica's allocated vCPU and memory per second while it runs (the Consumption plan's
# active rate); the prices are the environment's, else container-apps-prices.env's, the one file the local report
# reads too (docs/azure.md, "What a burst costs").
prices_file="$ROOT/container-apps-prices.env"
ACA_PRICE_VCPU_SECOND="${ACA_PRICE_VCPU_SECOND:-$(sed -n 's/^ACA_PRICE_VCPU_SECOND=//p' "$prices_file")}"
ACA_PRICE_GIB_SECOND="${ACA_PRICE_GIB_SECOND:-$(sed -n 's/^ACA_PRICE_GIB_SECOND=//p' "$prices_file")}"
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

# Per app: CPU-seconds used (UsageNanoCores), peak memory (WorkingSetBytes), replica-minutes and their cost at
# the allocated size; then the total, and whether each app scaled past one replica while its queue held messages.
# Prints lines; sets BURST_COST_ROW (cpu-seconds, peak MiB, cost) for the history. Status 1 when az failed.
# shellcheck disable=SC2154,SC2034 # APP_QUEUES is the burst script's, which reads BURST_COST_ROW
report_cost_and_scaling() { # START END ORDERS
  local app queue id cpu memory sizes used peak minutes cost total_cpu=0 total_cost=0 worst_mib=0 failed=0
  local namespace_id most_replicas most_messages why
  namespace_id="/subscriptions/$subscription/resourceGroups/$AZURE_RESOURCE_GROUP/providers/Microsoft.ServiceBus/namespaces/$SERVICEBUS_NAMESPACE"
  for pair in $APP_QUEUES; do
    app="${pair%%=*}"; queue="${pair#*=}"
    if ! sizes="$(az containerapp show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$app" \
      --query "[id, properties.template.containers[0].resources.cpu, properties.template.containers[0].resources.memory]" \
      -o tsv 2>"$az_error" | tr '\n' '\t')"; then
      echo "cost, $app: az failed: $(grep -m1 . "$az_error" || echo 'no error text')"; failed=1; continue
    fi
    IFS=$'\t' read -r id cpu memory <<<"$sizes"
    if ! used="$(metric_values "$id" UsageNanoCores Average "replicaName eq '*'" "$1" "$2")" ||
      ! peak="$(metric_values "$id" WorkingSetBytes Maximum "replicaName eq '*'" "$1" "$2")"; then
      echo "cost, $app: az could not read its metrics: $(grep -m1 . "$az_error" || echo 'no error text')"; failed=1; continue
    fi
    read -r used minutes peak cost <<<"$(awk -v used="$used" -v peak="$peak" -v cpu="$cpu" -v memory="$memory" \
      -v vcpu_price="$ACA_PRICE_VCPU_SECOND" -v gib_price="$ACA_PRICE_GIB_SECOND" 'BEGIN {
        n = split(used, u, "\n"); seconds = 0; minutes = 0
        for (i = 1; i <= n; i++) if (u[i] != "") { seconds += u[i] * 60 / 1e9; minutes++ }
        m = split(peak, p, "\n"); top = 0
        for (i = 1; i <= m; i++) if (p[i] + 0 > top) top = p[i] + 0
        sub(/Gi$/, "", memory)
        printf "%.2f %d %.0f %.6f\n", seconds, minutes, top / 1048576, minutes * 60 * (cpu * vcpu_price + memory * gib_price)
      }')"
    echo "cost, $app: $used CPU-s used, peak ${peak} MiB; $minutes replica-minutes of ${cpu} vCPU and ${memory} allocated: $cost USD"
    total_cpu="$(awk -v a="$total_cpu" -v b="$used" 'BEGIN { printf "%.2f", a + b }')"
    total_cost="$(awk -v a="$total_cost" -v b="$cost" 'BEGIN { printf "%.6f", a + b }')"
    (( peak > worst_mib )) && worst_mib="$peak"
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
  echo "burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND=$ACA_PRICE_VCPU_SECOND, ACA_PRICE_GIB_SECOND=$ACA_PRICE_GIB_SECOND USD): $total_cost USD for $3 orders; $total_cpu CPU-s used by the apps"
  BURST_COST_ROW="$total_cpu	$worst_mib	$total_cost"
  return "$failed"
}
