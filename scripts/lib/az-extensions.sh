# shellcheck shell=bash
# Sourced by the scripts that query Application Insights or Log Analytics: their az commands come in az extensions,
# which a fresh az lacks and would otherwise offer to install at a prompt no script answers.

# Installs az extension NAME unless it is there; says so on stderr.
ensure_extension() { # NAME
  if ! az extension show --name "$1" >/dev/null 2>&1; then
    echo "installing the az extension $1 (az extension add --name $1)" >&2
    az extension add --name "$1" --only-show-errors >&2
  fi
}
