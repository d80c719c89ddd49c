# shellcheck shell=bash
# The order-load tool as the scripts run it. Sourced by scripts/compare-local.sh and scripts/azure-burst.sh after
# ROOT is set.

# The tool as 'dotnet build -c Release' of its project leaves it (each script builds it first), run as it is:
# 'dotnet run --no-build' would evaluate the project again on every call.
load_tool_dll="$ROOT/src/OrderDistribution.LoadTool/bin/Release/net10.0/order-load.dll"

order_load() {
  dotnet "$load_tool_dll" "$@"
}

# What order-load's exit code means (docs/load-tool.md).
exit_reason() { # code
  case "$1" in
    1) echo "orders not scheduled, or valid orders still missing at the timeout" ;;
    2) echo "bad input, or the trio runs another model" ;;
    3) echo "storage or the sidecar could not be reached" ;;
    5) echo "another burst holds the storage (nothing was changed)" ;;
    6) echo "another burst shared the storage, so the burst has no result" ;;
    *) echo "unexpected failure" ;;
  esac
}
