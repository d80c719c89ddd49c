# shellcheck shell=bash
# shellcheck disable=SC2154 # subscription and az_error are the burst script's
# The Service Bus queues of a deployed environment, read with az (management plane: your az login needs
# read access to the namespace). Sourced by scripts/azure-burst.sh; every call names its subscription.
QUEUES="q-order-ingress q-order-express q-order-standard"

# The namespace's resource id: its queues' metrics, and the load tool's reading of them during the burst.
servicebus_namespace_id() {
  printf '/subscriptions/%s/resourceGroups/%s/providers/Microsoft.ServiceBus/namespaces/%s\n' \
    "$subscription" "$AZURE_RESOURCE_GROUP" "$SERVICEBUS_NAMESPACE"
}

# One queue's countDetails fields, tab-separated. Status 1, with az's first error line on stderr, when az fails.
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
drain_queues() { # TIMEOUT-SECONDS
  local waited=0 left queue count unread
  while :; do
    left=0; unread=""
    for queue in $QUEUES; do
      if count="$(messages_left "$queue")"; then left=$((left + count)); else unread="$unread $queue"; fi
    done
    [[ -z "$unread" && $left -eq 0 ]] && return 0
    [[ $waited -ge $1 ]] && break
    echo "waiting for $left messages still on the queues${unread:+ (not read:$unread)} ($waited s of $1 s)" >&2
    sleep 10; waited=$((waited + 10))
  done
  echo "still on the queues after $1 s: $left messages (active and scheduled)${unread:+; could not read$unread}" >&2
  return 1
}
