#!/usr/bin/env bash
# Runs the queries in scripts/kql against the deployed environment.
# Usage: scripts/query-kql.sh [--offset 30m | --start ISO8601 --end ISO8601] [--scheduled-at ISO8601]
#                            [--subscription ID] [NAME...]
#   --offset: how far back from now, as [Nd][Nh][Nm][Ns] (30m, 1h, 1d, 1d12h); default 1h
#   --scheduled-at: the burst's scheduled instant (UTC, e.g. 2026-11-24T10:00:00Z; azure-burst.sh
#     prints it): cycle-time measures from it; without it cycle-time has no cycle time
#   NAME: a file name in scripts/kql without .kql (default: all), e.g. cycle-time lock-lost
#   --subscription: default AZURE_SUBSCRIPTION_ID of the azd environment (the one azd deployed to)
# Application Insights tables (requests, traces, dependencies) go through
# `az monitor app-insights query` (az extension application-insights); the Container Apps tables
# through `az monitor log-analytics query` (az extension log-analytics). Missing extensions are
# installed on first use. Needs az (logged in), azd; jq and column optional (tables instead of JSON).
# Runs on bash 3.2 (macOS) and later.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { sed -n '2,15p' "$0"; }

# [Nd][Nh][Nm][Ns] to an ISO 8601 duration (1d12h -> P1DT12H, 30m -> PT30M); fails on anything else.
iso_duration() {
  local rest="$1" days="" time="" number unit
  [[ -n "$rest" ]] || return 1
  while [[ -n "$rest" ]]; do
    if [[ ! "$rest" =~ ^([0-9]+)([dhms])(.*)$ ]]; then return 1; fi
    number="${BASH_REMATCH[1]}"; unit="${BASH_REMATCH[2]}"; rest="${BASH_REMATCH[3]}"
    case "$unit" in
      d) days="${number}D" ;;
      h) time="${time}${number}H" ;;
      m) time="${time}${number}M" ;;
      s) time="${time}${number}S" ;;
    esac
  done
  if [[ -n "$time" ]]; then printf 'P%sT%s\n' "$days" "$time"; else printf 'P%s\n' "$days"; fi
}

offset="1h"; start=""; end=""; scheduled_at=""; subscription=""; names=()
need_value() { [[ $# -ge 2 ]] || { echo "$1 needs a value" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --offset) need_value "$@"; offset="$2"; shift 2 ;;
    --start) need_value "$@"; start="$2"; shift 2 ;;
    --end) need_value "$@"; end="$2"; shift 2 ;;
    --scheduled-at) need_value "$@"; scheduled_at="$2"; shift 2 ;;
    --subscription) need_value "$@"; subscription="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
if [[ -n "$start" && -z "$end" ]] || [[ -z "$start" && -n "$end" ]]; then
  echo "give both --start and --end" >&2; exit 2
fi
if [[ -n "$scheduled_at" && ! "$scheduled_at" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$ ]]; then
  echo "--scheduled-at '$scheduled_at' is not a UTC instant like 2026-11-24T10:00:00Z" >&2; exit 2
fi
if ! timespan_offset="$(iso_duration "$offset")"; then
  echo "--offset '$offset' is not a duration like 30m, 1h, 1d or 1d12h" >&2; exit 2
fi

files=()
if [[ ${#names[@]} -eq 0 ]]; then
  files=("$ROOT"/scripts/kql/*.kql)
else
  for n in "${names[@]}"; do
    file="$ROOT/scripts/kql/${n%.kql}.kql"
    [[ -f "$file" ]] || { echo "no query $n (scripts/kql/${n%.kql}.kql)" >&2; exit 2; }
    files+=("$file")
  done
fi

eval "$(azd env get-values)"
: "${AZURE_RESOURCE_GROUP:?not in the azd environment: run azd provision first}"
: "${APPLICATIONINSIGHTS_NAME:?not in the azd environment}"
: "${LOG_ANALYTICS_WORKSPACE_ID:?not in the azd environment}"
subscription="${subscription:-${AZURE_SUBSCRIPTION_ID:-}}"
if [[ -z "$subscription" ]]; then
  echo "no subscription: give --subscription or run azd provision (AZURE_SUBSCRIPTION_ID)" >&2; exit 2
fi

# shellcheck source=lib/az-extensions.sh
. "$ROOT/scripts/lib/az-extensions.sh"

print_table() { # az output (JSON) on stdin
  if command -v jq >/dev/null 2>&1 && command -v column >/dev/null 2>&1; then
    # app-insights: {tables:[{columns,rows}]}; log-analytics: [ {col: value} ]
    jq -r 'if type == "object" then (.tables[0] | (.columns | map(.name)), .rows[]) | @tsv
           else (if length > 0 then (.[0] | keys_unsorted), (.[] | [.[]]) else empty end) | @tsv end' |
      column -t -s "$(printf '\t')"
  else
    cat
  fi
}

# The queries declare `let scheduledAt = datetime(null);` where they measure from the burst's instant.
placeholder='let scheduledAt = datetime(null);'
for file in "${files[@]}"; do
  query="$(cat "$file")"
  if [[ "$query" == *"$placeholder"* ]]; then
    if [[ -n "$scheduled_at" ]]; then
      query="${query/"$placeholder"/"let scheduledAt = datetime($scheduled_at);"}"
    else
      echo "$(basename "$file" .kql): no --scheduled-at, so no cycle time (the burst script prints the instant)" >&2
    fi
  fi
  echo "== $(basename "$file" .kql)"
  if grep -Eq 'ContainerApp(Console|System)Logs' "$file"; then
    ensure_extension log-analytics
    if [[ -n "$start" ]]; then timespan="$start/$end"; else timespan="$timespan_offset"; fi
    az monitor log-analytics query --subscription "$subscription" --workspace "$LOG_ANALYTICS_WORKSPACE_ID" \
      --analytics-query "$query" --timespan "$timespan" -o json | print_table
  else
    ensure_extension application-insights
    if [[ -n "$start" ]]; then
      az monitor app-insights query --subscription "$subscription" --app "$APPLICATIONINSIGHTS_NAME" \
        --resource-group "$AZURE_RESOURCE_GROUP" --analytics-query "$query" \
        --start-time "$start" --end-time "$end" -o json | print_table
    else
      az monitor app-insights query --subscription "$subscription" --app "$APPLICATIONINSIGHTS_NAME" \
        --resource-group "$AZURE_RESOURCE_GROUP" --analytics-query "$query" \
        --offset "$offset" -o json | print_table
    fi
  fi
  echo
done
