# shellcheck shell=bash
# shellcheck disable=SC2154 # subscription and az_error are the burst script's
# A burst's cycle as scripts/azure-burst.sh follows it: its instant (each app's replicas then) and its end as the
# telemetry says, beside the load tool's. What it reads from the load tool's schedule record and the burst's result,
# and the query window, order-load azure-burst read works out in one line (docs/load-tool.md, "azure-burst").
# Sourced after ROOT, azure-apps.sh, load-tool.sh and az-extensions.sh.

# Waits for the load tool's schedule record (or for DONE to exist), then for its instant by this machine's
# clock, and writes every app's replica count then to OUT. Runs beside the load tool.
replicas_at_instant() { # RECORD DONE OUT
  local wait _
  while [[ ! -s "$1" && ! -e "$2" ]]; do sleep 1; done
  read -r wait _ <<<"$(order_load azure-burst read --state "$1")" && [[ "$wait" =~ ^[0-9]+$ ]] || return 0
  sleep "$wait"
  replica_counts > "$3"
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

# Prints the load tool's end of the cycle (from its result: cycle seconds, count and missing, "-" when none) beside
# the query's, waiting up to TELEMETRY-WAIT seconds for Application Insights to hold as many stored orders as the
# load tool found.
compare_ends() { # INSTANT START END TOOL-CYCLE COUNT MISSING TELEMETRY-WAIT
  local stored query_cycle="-" query_stored=0 last_stored="-" row waited=0
  stored=$(( ${5//-/0} - ${6//-/0} ))
  echo "cycle end, load tool (last blob's storedat):          $4 s after the instant, $stored orders stored"
  if [[ $7 -eq 0 ]]; then
    echo "cycle end, cycle-time.kql (last OrdersStored event): not queried (--telemetry-wait 0)"; return 0
  fi
  ensure_extension application-insights
  while :; do
    if ! row="$(query_end "$1" "$2" "$3")"; then
      echo "cycle end, cycle-time.kql (last OrdersStored event): az failed: $(grep -m1 . "$az_error" || echo 'no error text')"; return 0
    fi
    read -r query_cycle query_stored last_stored <<<"$row"
    [[ "${query_stored:-}" =~ ^[0-9]+$ ]] || query_stored=0
    # Telemetry arrives within minutes: wait until it holds what the load tool found stored.
    if [[ $query_stored -gt 0 && $query_stored -ge $stored ]] || [[ $waited -ge $7 ]]; then break; fi
    echo "waiting for telemetry: Application Insights holds $query_stored of $stored stored orders ($waited s of $7 s)" >&2
    sleep 30; waited=$((waited + 30))
  done
  echo "cycle end, cycle-time.kql (last OrdersStored event): ${query_cycle:--} s after the instant, $query_stored orders stored (last at ${last_stored:--})"
}
