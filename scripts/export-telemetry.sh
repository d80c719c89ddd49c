#!/usr/bin/env bash
# Exports a burst's real telemetry from the deployed environment in the shape of the tests' hand-written
# sample, so that the KQL tests read recorded rows instead of rows written by hand.
# Usage: scripts/export-telemetry.sh --start ISO8601 --end ISO8601 [--subscription ID] [--out FILE]
#   --start, --end: the burst's window (UTC), as scripts/azure-burst.sh prints it after a burst
#   --out: default tests/OrderDistribution.Deployment.Tests/Telemetry/recorded-sample.json, which the
#     tests read instead of Telemetry/hand-written-sample.json once it exists
#   --subscription: default AZURE_SUBSCRIPTION_ID of the azd environment (the one azd deployed to)
# A sample, not the whole burst: per app, the latest row of each kind (a request route, a stored-orders
# event, a dependency name, a log line's category and template, with a warning first), and each app's
# last 20 console lines, so that every query's filters find their rows and the file stays small.
# Needs az (logged in, extensions application-insights and log-analytics), azd and jq. Runs on bash 3.2+.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

start=""; end=""; subscription=""; out="$ROOT/tests/OrderDistribution.Deployment.Tests/Telemetry/recorded-sample.json"
need_value() { [[ $# -ge 2 ]] || { echo "$1 needs a value" >&2; exit 2; }; }
instant='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$'
while [[ $# -gt 0 ]]; do
  case "$1" in
    --start) need_value "$@"; start="$2"; shift 2 ;;
    --end) need_value "$@"; end="$2"; shift 2 ;;
    --subscription) need_value "$@"; subscription="$2"; shift 2 ;;
    --out) need_value "$@"; out="$2"; shift 2 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for value in "$start" "$end"; do
  [[ "$value" =~ $instant ]] || { echo "give --start and --end as UTC instants like 2026-11-24T10:00:00Z (got '$value')" >&2; exit 2; }
done
command -v jq >/dev/null 2>&1 || { echo "jq is not installed: it turns az's tables into the sample's rows" >&2; exit 1; }

eval "$(azd env get-values)"
: "${AZURE_RESOURCE_GROUP:?not in the azd environment: run azd provision first}"
: "${APPLICATIONINSIGHTS_NAME:?not in the azd environment}"
: "${LOG_ANALYTICS_WORKSPACE_ID:?not in the azd environment}"
subscription="${subscription:-${AZURE_SUBSCRIPTION_ID:-}}"
[[ -n "$subscription" ]] || { echo "no subscription: give --subscription or run azd provision (AZURE_SUBSCRIPTION_ID)" >&2; exit 2; }

roles='dynamic(["distributor", "receiver-express", "receiver-standard"])'
# Per table: the latest row of each kind per app (arg_max keeps every column of that row).
declare -a names=(requests customEvents dependencies traces)
declare -a queries=(
  "requests | where cloud_RoleName in ($roles) | summarize arg_max(timestamp, *) by cloud_RoleName, name, success"
  "customEvents | where cloud_RoleName in ($roles) | summarize arg_max(timestamp, *) by cloud_RoleName, name"
  "dependencies | where cloud_RoleName in ($roles) | summarize arg_max(timestamp, *) by cloud_RoleName, name, success"
  "traces | where cloud_RoleName in ($roles) | extend kind = strcat(tostring(customDimensions.CategoryName), '/', tostring(customDimensions.OriginalFormat)) | summarize arg_max(severityLevel, *) by cloud_RoleName, kind | project-away kind"
)

# az's {tables:[{columns,rows}]} as an array of row objects; dynamic columns (customDimensions,
# customMeasurements) arrive as JSON text and become objects, as in the sample.
# shellcheck disable=SC2016 # a jq program: its $ names are jq's
rows_of_table='.tables[0] as $t | [$t.rows[] | [$t.columns, .] | transpose
  | map({(.[0].name): (if .[0].type == "dynamic" and (.[1] | type) == "string" then (.[1] | fromjson? // .[1]) else .[1] end)})
  | add // {}]'

sample="$(jq -n --arg from "$start" --arg until "$end" \
  '{about: ("RECORDED by scripts/export-telemetry.sh from a real burst, " + $from + " to " + $until + ": per app, the latest row of each kind (see the script).")}')"
for i in "${!names[@]}"; do
  rows="$(az monitor app-insights query --subscription "$subscription" --app "$APPLICATIONINSIGHTS_NAME" \
    --resource-group "$AZURE_RESOURCE_GROUP" --analytics-query "${queries[$i]}" \
    --start-time "$start" --end-time "$end" -o json | jq "$rows_of_table")"
  sample="$(jq --arg table "${names[$i]}" --argjson rows "$rows" '. + {($table): $rows}' <<<"$sample")"
  echo "${names[$i]}: $(jq length <<<"$rows") rows" >&2
done

console="ContainerAppConsoleLogs | where ContainerAppName in ($roles) | partition hint.strategy=native by ContainerAppName (top 20 by TimeGenerated desc)"
rows="$(az monitor log-analytics query --subscription "$subscription" --workspace "$LOG_ANALYTICS_WORKSPACE_ID" \
  --analytics-query "$console" --timespan "$start/$end" -o json)"
sample="$(jq --argjson rows "$rows" '. + {ContainerAppConsoleLogs: $rows}' <<<"$sample")"
echo "ContainerAppConsoleLogs: $(jq length <<<"$rows") rows" >&2

mkdir -p "$(dirname "$out")"
printf '%s\n' "$sample" > "$out"
echo "wrote $out: run the Deployment tests (KqlTests) against it, and commit it" >&2
