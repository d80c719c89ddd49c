#!/usr/bin/env bash
# Runs the queries in scripts/kql against the deployed environment.
# Usage: scripts/query-kql.sh [--offset 30m | --start ISO8601 --end ISO8601] [NAME...]
#   NAME: a file name in scripts/kql without .kql (default: all), e.g. cycle-time lock-lost
# Application Insights tables (requests, traces, dependencies) go through
# `az monitor app-insights query`; ContainerAppConsoleLogs_CL through `az monitor log-analytics query`.
# Needs: az (logged in; extension application-insights: az extension add -n application-insights),
# azd (for the environment's values), jq optional (tables instead of JSON).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

offset="1h"; start=""; end=""; names=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --offset) offset="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    --end) end="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) names+=("$1"); shift ;;
  esac
done
if [[ -n "$start" && -z "$end" ]] || [[ -z "$start" && -n "$end" ]]; then
  echo "give both --start and --end" >&2; exit 2
fi

eval "$(azd env get-values)"
: "${AZURE_RESOURCE_GROUP:?not in the azd environment: run azd provision first}"
: "${APPLICATIONINSIGHTS_NAME:?not in the azd environment}"
: "${LOG_ANALYTICS_WORKSPACE_ID:?not in the azd environment}"

if [[ ${#names[@]} -eq 0 ]]; then
  files=("$ROOT"/scripts/kql/*.kql)
else
  files=(); for n in "${names[@]}"; do files+=("$ROOT/scripts/kql/${n%.kql}.kql"); done
fi

print_table() { # az output (JSON) on stdin
  if command -v jq >/dev/null 2>&1; then
    # app-insights: {tables:[{columns,rows}]}; log-analytics: [ {col: value} ]
    jq -r 'if type == "object" then (.tables[0] | (.columns | map(.name)), .rows[]) | @tsv
           else (if length > 0 then (.[0] | keys_unsorted), (.[] | [.[]]) else empty end) | @tsv end' |
      column -t -s $'\t'
  else
    cat
  fi
}

for file in "${files[@]}"; do
  query="$(cat "$file")"
  echo "== $(basename "$file" .kql)"
  if grep -q 'ContainerAppConsoleLogs_CL' "$file"; then
    if [[ -n "$start" ]]; then timespan="$start/$end"; else timespan="PT${offset^^}"; fi
    az monitor log-analytics query --workspace "$LOG_ANALYTICS_WORKSPACE_ID" \
      --analytics-query "$query" --timespan "$timespan" -o json | print_table
  else
    if [[ -n "$start" ]]; then range=(--start-time "$start" --end-time "$end"); else range=(--offset "$offset"); fi
    az monitor app-insights query --app "$APPLICATIONINSIGHTS_NAME" --resource-group "$AZURE_RESOURCE_GROUP" \
      --analytics-query "$query" "${range[@]}" -o json | print_table
  fi
  echo
done
