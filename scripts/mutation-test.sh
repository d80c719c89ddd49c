#!/usr/bin/env bash
# Mutation testing of the core projects with Stryker.NET, the version .config/dotnet-tools.json pins. Each project's
# src/OrderDistribution.<project>/stryker-config.json names the fast test projects that exercise it and what is not
# mutated (log calls, exception text). Runs the projects named (default: all five, messaging first), one after
# another, each report in StrykerOutput/<project>/reports/ (mutation-report.html and .json), and ends with one line
# per project: its minutes and whether it met its break threshold. Exit 1 when one did not.
# Usage: scripts/mutation-test.sh [Messaging|Distributor|Receiver|Storage|ServiceDefaults ...]
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
if [ $# -eq 0 ]; then set -- Messaging Distributor Receiver Storage ServiceDefaults; fi
for project in "$@"; do
  if [ ! -f "src/OrderDistribution.$project/stryker-config.json" ]; then
    echo "no mutation config for $project (src/OrderDistribution.$project/stryker-config.json)" >&2
    exit 2
  fi
done

dotnet tool restore >/dev/null
status=0
summary=""
for project in "$@"; do
  started=$(date +%s)
  result="met its break threshold"
  (cd "src/OrderDistribution.$project" && dotnet stryker --output "$root/StrykerOutput/$project") \
    || { status=1; result="FAILED (below its break threshold, or Stryker stopped)"; }
  minutes=$(( ($(date +%s) - started + 59) / 60 ))
  summary="$summary$project: $minutes min, $result (StrykerOutput/$project/reports/mutation-report.html)
"
done
printf '%s' "$summary"
exit "$status"
