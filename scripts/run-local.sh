#!/usr/bin/env bash
# Runs the three apps locally with Dapr multi-app run.
# Usage: scripts/run-local.sh [pubsub|bindings] [bulk|single]      (default: pubsub bulk)
#        scripts/run-local.sh --render-only [pubsub|bindings] [bulk|single]
#          writes the run file only and prints its path
#
# The model picks the committed run file: dapr.yaml (components-pubsub) or dapr.bindings.yaml
# (components-bindings). The mode sets Messaging__PubSubMode in a copy of it under .dapr/
# (git-ignored), with its relative paths rewritten for that folder.
# Starts Redis (pubsub model) and Azurite if nothing listens on their ports, and stops on exit
# what it started. Azurite keeps its data on disk in .tools/azurite-data: in memory it slows
# down sharply past about 10,000 blobs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

render_only=false
if [[ "${1:-}" == "--render-only" ]]; then render_only=true; shift; fi
model="${1:-pubsub}"
mode="${2:-bulk}"
case "$model" in
  pubsub) template="$ROOT/dapr.yaml" ;;
  bindings) template="$ROOT/dapr.bindings.yaml" ;;
  *) echo "model must be pubsub or bindings, not '$model'" >&2; exit 2 ;;
esac
case "$mode" in bulk|single) ;; *) echo "mode must be bulk or single, not '$mode'" >&2; exit 2 ;; esac

render() {
  local out="$ROOT/.dapr/run-local.$model.$mode.yaml"
  mkdir -p "$ROOT/.dapr"
  # The run file's relative paths resolve from its own folder, one level below the root.
  sed -E \
    -e 's#^([[:space:]]*(appDirPath|configFilePath):[[:space:]]*)\./#\1../#' \
    -e 's#^([[:space:]]*-[[:space:]]*)\./#\1../#' \
    -e "s#^([[:space:]]*Messaging__PubSubMode:[[:space:]]*).*#\1$mode#" \
    "$template" > "$out"
  if ! grep -qE "^[[:space:]]*Messaging__PubSubMode:[[:space:]]*$mode\$" "$out"; then
    echo "could not set Messaging__PubSubMode in $out" >&2; exit 1
  fi
  echo "$out"
}

if $render_only; then render; exit 0; fi

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() { # port seconds
  for _ in $(seq 1 "$2"); do listening "$1" && return 0; sleep 1; done
  echo "nothing listens on 127.0.0.1:$1 after $2 s" >&2; return 1
}

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

started_pids=()
cleanup() {
  for pid in "${started_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

start_redis() {
  if listening 6379; then echo "Redis: already listening on 6379"; return; fi
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "Redis is not installed: apt-get install redis-server (or run one on 127.0.0.1:6379)." >&2; exit 1
  fi
  mkdir -p "$ROOT/.tools"
  redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no \
    --logfile "$ROOT/.tools/redis.log" --dir "$ROOT/.tools" &
  started_pids+=("$!")
  wait_for_port 6379 10
  echo "Redis: started (log .tools/redis.log)"
}

start_azurite() {
  if listening 10000 && listening 10001; then echo "Azurite: already listening on 10000/10001"; return; fi
  local azurite="$ROOT/.tools/node_modules/.bin/azurite"
  [[ -x "$azurite" ]] || azurite="$(command -v azurite || true)"
  if [[ -z "$azurite" ]]; then
    echo "Azurite is not installed: run scripts/install-tools.sh (needs Node.js and npm)." >&2; exit 1
  fi
  mkdir -p "$ROOT/.tools/azurite-data"
  "$azurite" --silent --location "$ROOT/.tools/azurite-data" --debug "$ROOT/.tools/azurite-debug.log" \
    --blobHost 127.0.0.1 --queueHost 127.0.0.1 --tableHost 127.0.0.1 --skipApiVersionCheck \
    > "$ROOT/.tools/azurite.log" 2>&1 &
  started_pids+=("$!")
  wait_for_port 10000 30 && wait_for_port 10001 30
  echo "Azurite: started (data .tools/azurite-data, log .tools/azurite.log)"
}

check_dapr
[[ "$model" == pubsub ]] && start_redis
start_azurite

# Both receivers run one project: build once here; the run file's commands use --no-build.
dotnet build -c Release "$ROOT/src/OrderDistribution.Distributor/OrderDistribution.Distributor.csproj"
dotnet build -c Release "$ROOT/src/OrderDistribution.Receiver/OrderDistribution.Receiver.csproj"

run_file="$(render)"
echo "dapr run -f $run_file   (model $model, mode $mode; Ctrl+C stops)"
dapr run -f "$run_file"
