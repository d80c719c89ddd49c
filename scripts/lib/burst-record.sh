# shellcheck shell=bash
# shellcheck disable=SC2154 # subscription and az_error are the burst script's
# What scripts/azure-burst.sh reads and keeps about a burst: the load tool's schedule record and results row,
# the history of bursts, and the query of the burst's telemetry. Sourced after ROOT and azure-apps.sh.
#
# Clocks: the scheduled instant is in storage's clock (the load tool measured this machine's clock against
# storage's Date header and scheduled in that time; Service Bus applies it by its own clock, which is not
# measured); the load tool's end of the cycle is the receivers' stored time (their containers' clocks, else
# storage's Last-Modified); the KQL cycle time ends at the requests' timestamps (the containers' clocks). So
# the query window is this machine's start and end moved by the skew the load tool measured
# (ClockSkewSeconds), widened by WINDOW_MARGIN seconds each side for the containers' clocks.
WINDOW_MARGIN=60

# Epoch seconds as a UTC instant, with GNU date or BSD date (macOS).
iso_of_epoch() { # SECONDS
  date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$1" +%Y-%m-%dT%H:%M:%SZ
}

# The query window, "start end": this machine's STARTED and ENDED (epoch seconds) in storage's time, widened.
query_window() { # STARTED ENDED SKEW
  printf '%s %s\n' "$(iso_of_epoch $(($1 + $3 - WINDOW_MARGIN)))" "$(iso_of_epoch $(($2 + $3 + WINDOW_MARGIN)))"
}

# UTC instant (2026-11-24T10:00:00Z) as epoch seconds, with GNU date or BSD date (macOS).
epoch_of_iso() { # INSTANT
  date -u -d "$1" +%s 2>/dev/null || date -u -j -f '%Y-%m-%dT%H:%M:%SZ' "$1" +%s
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

# The schedule record's ScheduledAt as a UTC instant (2026-11-24T10:00:00Z); empty without a record.
scheduled_instant() { # RECORD
  [[ -f "$1" ]] || return 0
  sed -nE 's/.*"ScheduledAt":"([0-9T:.-]+)(Z|\+00:00)".*/\1Z/p' "$1"
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

# Prints the load tool's end of the cycle beside the query's, waiting up to TELEMETRY-WAIT seconds
# for Application Insights to hold as many stored orders as the load tool found.
compare_ends() { # INSTANT START END LOAD-TOOL-LOG TELEMETRY-WAIT
  local tool_cycle="-" count=0 missing=0 stored query_cycle="-" query_stored=0 last_stored="-" row waited=0
  read -r tool_cycle count missing <<<"$(load_tool_result "$4" "$1")"
  stored=$(( ${count:-0} - ${missing:-0} ))
  echo "cycle end, load tool (last blob's storedat):          ${tool_cycle:--} s after the instant, $stored orders stored"
  if [[ $5 -eq 0 ]]; then
    echo "cycle end, cycle-time.kql (last OrdersStored event): not queried (--telemetry-wait 0)"; return 0
  fi
  while :; do
    if ! row="$(query_end "$1" "$2" "$3")"; then
      echo "cycle end, cycle-time.kql (last OrdersStored event): az failed: $(grep -m1 . "$az_error" || echo 'no error text')"; return 0
    fi
    read -r query_cycle query_stored last_stored <<<"$row"
    [[ "${query_stored:-}" =~ ^[0-9]+$ ]] || query_stored=0
    # Telemetry arrives within minutes: wait until it holds what the load tool found stored.
    if [[ $query_stored -gt 0 && $query_stored -ge $stored ]] || [[ $waited -ge $5 ]]; then break; fi
    echo "waiting for telemetry: Application Insights holds $query_stored of $stored stored orders ($waited s of $5 s)" >&2
    sleep 30; waited=$((waited + 30))
  done
  echo "cycle end, cycle-time.kql (last OrdersStored event): ${query_cycle:--} s after the instant, $query_stored orders stored (last at ${last_stored:--})"
}

# The history of bursts: compare cycle times only among bursts of one model that started alike (label and
# replicas at the instant). Prints how many earlier ones compare with this one.
count_comparable_bursts() { # HISTORY MODEL START REPLICAS-AT-INSTANT
  local alike
  [[ -f "$1" ]] || printf 'scheduled_at\tmodel\tstart\treplicas_at_instant\treplicas_at_end\tcpu_seconds\tpeak_mib\tcost_usd\n' > "$1"
  if [[ -z "$4" || "$4" == *"=?"* ]]; then
    echo "comparable earlier bursts: unknown (the replicas at the instant were not read); compare this burst with none"
  else
    alike="$(awk -F'\t' -v m="$2" -v s="$3" -v r="$4" 'NR > 1 && $2 == m && $3 == s && $4 == r' "$1" | wc -l | tr -d ' ')"
    echo "comparable earlier bursts (model $2, start $3, same replicas at the instant): $alike, in $1"
  fi
}
