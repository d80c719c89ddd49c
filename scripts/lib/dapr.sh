# shellcheck shell=bash
# The Dapr CLI and runtime the local run needs. Sourced by scripts/run-local.sh.

# Exits with how to install them when the CLI or daprd is missing; prints the CLI's versions.
check_dapr() {
  if ! command -v dapr >/dev/null 2>&1; then
    cat >&2 <<'MSG'
The Dapr CLI is not installed. Install it (https://docs.dapr.io/getting-started/install-dapr-cli/):
  wget -q https://raw.githubusercontent.com/dapr/cli/master/install/install.sh -O - | /bin/bash
then the runtime, without Docker:
  dapr init --slim
MSG
    exit 1
  fi
  dapr --version
  local daprd="${DAPR_INSTALL_DIR:-$HOME/.dapr}/bin/daprd"
  if [[ ! -x "$daprd" ]]; then
    echo "The Dapr runtime (daprd) is missing at $daprd: run  dapr init --slim  (or dapr init with Docker)." >&2
    exit 1
  fi
}
