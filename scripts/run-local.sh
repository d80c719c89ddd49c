#!/usr/bin/env bash
# Runs the three apps locally with Dapr multi-app run.
# Usage: scripts/run-local.sh [bindings|pubsub-single|pubsub-bulk]      (default: pubsub-bulk)
#        scripts/run-local.sh --render-only [bindings|pubsub-single|pubsub-bulk]
#          writes the run file (and, for bindings, its components folder) only and prints its path
#        scripts/run-local.sh --azurite-args
#          prints the arguments Azurite would be started with, one per line
#        scripts/run-local.sh --redis-persistence-args
#          prints the persistence settings Redis is started with, one per line
#        scripts/run-local.sh --rabbitmq-vhost-commands
#          prints the rabbitmqctl calls that make RabbitMQ's vhost 'orders', one per line
#        scripts/run-local.sh --rabbitmq-vhost
#          makes the vhost 'orders' and gives guest its permissions there, on the RabbitMQ that
#          rabbitmqctl reaches (RABBITMQ_NODENAME), as the bindings model's start does, and exits
#        scripts/run-local.sh --missing-consumers [bindings|pubsub-single|pubsub-bulk]
#          exits 0 if every queue has its consumers (bindings) or every stream its consumer group
#          (pub/sub); else prints the first that has not, with the sidecar log to read, and exits 1
#          (3: the broker could not be asked)
#        scripts/run-local.sh --storage-only
#          starts Azurite only (if nothing listens on its ports) and keeps it until Ctrl+C; what
#          scripts/compare-local.sh keeps running under every model's trio and storage alone
#
# The model picks the committed run file: dapr.yaml (components-pubsub) or dapr.bindings.yaml
# (components-bindings), and sets Messaging__Model in a copy of it under .dapr/
# (git-ignored), with its relative paths rewritten for that folder.
# Bindings model: components-bindings/ has one RabbitMQ input component per queue, which is all that
# `dapr run -f dapr.bindings.yaml` straight loads. This script renders a copy of it beside its run
# file (.dapr/components-bindings, which the run file then loads) with BINDING_CONSUMERS_PER_QUEUE
# (1..16, default 4: Azure's default, infra/main.parameters.json) consumers per queue.
# Starts Redis (pubsub model), RabbitMQ (bindings model) and Azurite if nothing listens on their
# ports, and stops on exit only what it started. Azurite keeps its data on disk in
# .tools/azurite-data: in memory it slows down sharply past about 10,000 blobs. AZURITE_DEBUG=1
# adds Azurite's debug log (.tools/azurite-debug.log), which slows it (docs/local-run.md, "Start").
# Brokers keep what they accepted through a crash (docs/brokers.md): Redis with an append-only file
# (.tools/redis-data), RabbitMQ's queues quorum queues in the vhost 'orders'. A Redis or RabbitMQ
# that was already running is checked, with one warning line if it would lose orders in a crash.
# The pub/sub model trims each stream every STREAM_TRIM_SECONDS (30) up to the oldest entry a
# consumer group still needs (scripts/trim-streams.lua), instead of a length cap.
# Once the trio runs, the script waits until every queue has BINDING_CONSUMERS_PER_QUEUE consumers
# (bindings) or every stream its consumer group (pub/sub) and says "ready"; if that takes more than
# READY_TIMEOUT seconds (300), it stops the trio with one line naming the queue or stream and the
# sidecar log to read: sidecars and apps answer their health checks while a binding cannot consume.
# Bash 3.2 compatible (macOS).
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Azurite's command line. Without --debug unless AZURITE_DEBUG=1: its debug log cost 10,000
# uploads 15.2 s against 12.4-13.1 s without. Its ports are the ones the components and the load tool
# use; AZURITE_BLOB_PORT, AZURITE_QUEUE_PORT, AZURITE_TABLE_PORT, AZURITE_LOCATION and AZURITE_LOG move
# them and its data and log, for a test beside another Azurite.
AZURITE_BLOB_PORT="${AZURITE_BLOB_PORT:-10000}"
AZURITE_QUEUE_PORT="${AZURITE_QUEUE_PORT:-10001}"
AZURITE_TABLE_PORT="${AZURITE_TABLE_PORT:-10002}"
AZURITE_LOCATION="${AZURITE_LOCATION:-$ROOT/.tools/azurite-data}"
AZURITE_LOG="${AZURITE_LOG:-$ROOT/.tools/azurite.log}"
azurite_args() {
  printf '%s\n' --silent --location "$AZURITE_LOCATION" \
    --blobHost 127.0.0.1 --queueHost 127.0.0.1 --tableHost 127.0.0.1 --skipApiVersionCheck \
    --blobPort "$AZURITE_BLOB_PORT" --queuePort "$AZURITE_QUEUE_PORT" --tablePort "$AZURITE_TABLE_PORT"
  if [[ "${AZURITE_DEBUG:-0}" == 1 ]]; then
    printf '%s\n' --debug "$ROOT/.tools/azurite-debug.log"
  fi
}
if [[ "${1:-}" == "--azurite-args" ]]; then azurite_args; exit 0; fi

# Redis's persistence: every write goes to the append-only file and is fsynced before Redis
# answers it, so a crash (even of the machine) loses nothing Redis acknowledged. Measured on
# 10,000 order-sized XADDs from 50 connections: 0.29 s against 0.12 s with everysec and 0.11 s
# without persistence; everysec may answer writes it has not yet written while an fsync is slow,
# which a crash then loses (docs/brokers.md). No RDB snapshots: the AOF alone is the data.
redis_persistence_args() {
  printf '%s\n' --appendonly yes --appendfsync always --save ""
}
if [[ "${1:-}" == "--redis-persistence-args" ]]; then redis_persistence_args; exit 0; fi

# The bindings' queues live in the vhost 'orders' (components-bindings: host .../orders), whose
# default queue type is quorum: bindings.rabbitmq declares its queue with no x-queue-type, and
# quorum queues write every message to their log before it counts as enqueued, where a classic
# queue lost 7,790 of 10,000 to a kill -9 (docs/brokers.md). The rabbitmqctl calls that make it,
# one per line, arguments split on spaces (the tests make their RabbitMQ's vhost with these).
RABBITMQ_VHOST=orders
rabbitmq_vhost_commands() {
  printf '%s\n' "add_vhost $RABBITMQ_VHOST --default-queue-type quorum" \
    "set_permissions -p $RABBITMQ_VHOST guest .* .* .*"
}
if [[ "${1:-}" == "--rabbitmq-vhost-commands" ]]; then rabbitmq_vhost_commands; exit 0; fi

render_only=false
storage_only=false
check_consumers=false
vhost_only=false
if [[ "${1:-}" == "--rabbitmq-vhost" ]]; then vhost_only=true; shift; fi
if [[ "${1:-}" == "--render-only" ]]; then render_only=true; shift; fi
if [[ "${1:-}" == "--missing-consumers" ]]; then check_consumers=true; shift; fi
if [[ "${1:-}" == "--storage-only" ]]; then storage_only=true; shift; fi
model="${1:-pubsub-bulk}"
# The spellings this script took before, refused with the one to use (the table of renamed settings).
while IFS=$'\t' read -r kind old new _; do
  # shellcheck disable=SC2053 # $old is a pattern
  if [[ "$kind" == argument && "$model ${2:-}" == $old ]]; then
    echo "'$model${2:+ $2}' is gone: use scripts/run-local.sh $new" >&2; exit 2
  fi
done < "$ROOT/src/OrderDistribution.ServiceDefaults/renamed-settings.tsv"
case "$model" in
  pubsub-single|pubsub-bulk) template="$ROOT/dapr.yaml"; family=pubsub ;;
  bindings) template="$ROOT/dapr.bindings.yaml"; family=bindings ;;
  *) echo "model must be bindings, pubsub-single or pubsub-bulk, not '$model'" >&2; exit 2 ;;
esac

# The bindings model's consumers per queue. bindings.rabbitmq hands its app one message at a time,
# so the consumers on a queue are how many orders its app takes on at once; Azure's Service Bus
# input bindings run as many handlers (BINDING_CONSUMERS_PER_QUEUE there too, same default).
consumers="${BINDING_CONSUMERS_PER_QUEUE:-4}"
if [ "$model" = bindings ] && ! [[ "$consumers" =~ ^([1-9]|1[0-6])$ ]]; then
  echo "BINDING_CONSUMERS_PER_QUEUE must be a whole number from 1 to 16, not '$consumers'" >&2; exit 2
fi
ready_timeout="${READY_TIMEOUT:-300}"
if ! [[ "$ready_timeout" =~ ^[1-9][0-9]*$ ]]; then
  echo "READY_TIMEOUT must be a whole number of seconds, not '$ready_timeout'" >&2; exit 2
fi

# Settings that break every delivery without a word, refused with one line each:
# - DAPR_GRPC_ENDPOINT / DAPR_HTTP_ENDPOINT in this shell reach every app, and the SDK prefers them to
#   the DAPR_*_PORT the CLI gives each app: all three would call one sidecar, not their own.
# - APP_API_TOKEN in the run file's env reaches the apps but not daprd, which never sends it: every
#   delivery answered 401. Export it in the shell instead (the CLI passes the shell's env to both).
refuse_broken_sidecar_settings() {
  local variable
  for variable in DAPR_GRPC_ENDPOINT DAPR_HTTP_ENDPOINT; do
    if [ -n "${!variable:-}" ]; then
      echo "$variable is set in this shell (${!variable}): every app would call that sidecar instead of its own; unset it" >&2
      exit 2
    fi
  done
  if grep -qE '^[[:space:]]*APP_API_TOKEN:' "$template"; then
    echo "$(basename "$template") sets APP_API_TOKEN in an app's env: the apps would refuse every delivery (401), daprd never gets it; export APP_API_TOKEN in the shell instead" >&2
    exit 2
  fi
}
refuse_broken_sidecar_settings

# pubsub-single: the sidecar runs up to the component's concurrency (500) deliveries into each app at
# once, and they queue for the app's 64 writes or publishes (Receiver:MaxConcurrentWrites,
# Dapr:MaxConcurrentRequests); deliveries at the back of that queue passed their 10 s deadline on
# real sidecars (1,403 in a cold run) and were sent again. appMaxConcurrency holds the sidecar to
# as many deliveries as the app works on at once. Bulk and bindings deliveries are few and large
# (or one per consumer), so they get no such cap.
# Their sidecars also log at error: daprd 1.18 writes a warning for each entry its app answers RETRY,
# about 32,000 lines per receiver through a 60 s storage outage (docs/benchmark.md, "What a burst costs").
SINGLE_MODE_APP_MAX_CONCURRENCY=64
cap_single_mode_deliveries() {
  if [ "$model" = pubsub-single ]; then
    awk -v cap="$SINGLE_MODE_APP_MAX_CONCURRENCY" '{ print }
      /^[[:space:]]*appProtocol:[[:space:]]*http$/ { match($0, /^[[:space:]]*/); indent = substr($0, 1, RLENGTH)
        printf "%sappMaxConcurrency: %s\n%slogLevel: error\n", indent, cap, indent }'
  else
    cat
  fi
}

# Consumer K of a queue: its first input component under the name FIRST-K, delivering to the first
# one's route (the app serves one route per queue), without the first's comments.
render_consumer() { # first-component-file name k
  awk -v name="$2" -v k="$3" -v n="$consumers" -v source="$(basename "$1")" '
    NR == 1 {
      printf "# Consumer %s of %s on this queue, rendered by scripts/run-local.sh (BINDING_CONSUMERS_PER_QUEUE)\n", k, n
      printf "# from components-bindings/%s: read that file for each setting.\n", source
    }
    /^[[:space:]]*#/ { next }
    $0 == "  name: " name { print "  name: " name "-" k; renamed++; next }
    /^scopes:/ { printf "    - name: route\n      value: /%s\n", name; routed++ }
    { print }
    END { if (renamed != 1 || routed != 1) exit 1 }' "$1"
}

# The resiliency spec with each input component'"'"'s target entry repeated for its consumers 2..N.
render_resiliency() { # file input-component-names...
  local file="$1"; shift
  awk -v n="$consumers" -v names=" $* " '
    function flush(   k, i) {
      for (k = 2; k <= n; k++) {
        printf "%s%s-%s:\n", indent, current, k
        for (i = 1; i <= lines; i++) print block[i]
      }
      current = ""
    }
    current != "" && /^[[:space:]]*[^[:space:]#]/ && match($0, /^[[:space:]]*/) && RLENGTH <= length(indent) { flush() }
    current != "" { block[++lines] = $0 }
    match($0, /^[[:space:]]*[a-z0-9-]+:$/) {
      key = $0; sub(/^[[:space:]]*/, "", key); sub(/:$/, "", key)
      if (index(names, " " key " ") > 0) {
        current = key; lines = 0; indent = $0; sub(/[^[:space:]].*$/, "", indent); found++
      }
    }
    { print }
    END { if (current != "") flush(); if (found != split(names, all, " ")) exit 1 }' "$file"
}

# .dapr/components-bindings: components-bindings/ with BINDING_CONSUMERS_PER_QUEUE consumers per
# queue. Each file is written whole and moved into place, so a render running beside another (tests
# render at the same time) never leaves one half-written; files of a larger count are removed.
render_bindings_components() {
  local source="$ROOT/components-bindings" target="$ROOT/.dapr/components-bindings"
  local staging file name k inputs=()
  mkdir -p "$target"
  staging="$(mktemp -d "$ROOT/.dapr/.components-bindings.XXXXXX")"
  for file in "$source"/*; do
    [ -f "$file" ] || continue
    cp "$file" "$staging/"
    case "$file" in *-input.yaml) ;; *) continue ;; esac
    name="$(basename "$file" .yaml)"
    inputs+=("$name")
    for ((k = 2; k <= consumers; k++)); do
      render_consumer "$file" "$name" "$k" > "$staging/$name-$k.yaml" \
        || { echo "could not render consumer $k of $file" >&2; rm -rf "$staging"; exit 1; }
    done
  done
  if [ ${#inputs[@]} -eq 0 ]; then echo "no *-input.yaml component in $source" >&2; rm -rf "$staging"; exit 1; fi
  render_resiliency "$source/resiliency.yaml" "${inputs[@]}" > "$staging/resiliency.yaml" \
    || { echo "could not render $source/resiliency.yaml: it must name each of ${inputs[*]} once" >&2; rm -rf "$staging"; exit 1; }
  for file in "$target"/*; do
    if [ -f "$file" ] && [ ! -e "$staging/$(basename "$file")" ]; then rm -f "$file"; fi
  done
  for file in "$staging"/*; do mv -f "$file" "$target/"; done
  rmdir "$staging"
}

render() {
  local out="$ROOT/.dapr/run-local.$model.yaml"
  mkdir -p "$ROOT/.dapr"
  # The run file's relative paths resolve from its own folder, one level below the root.
  local edits=(
    -e 's#^([[:space:]]*(appDirPath|configFilePath):[[:space:]]*)\./#\1../#'
    -e 's#^([[:space:]]*-[[:space:]]*)\./#\1../#'
    -e "s#^([[:space:]]*Messaging__Model:[[:space:]]*).*#\\1$model#"
  )
  if [ "$model" = bindings ]; then
    render_bindings_components
    # The components and configuration are the rendered copy beside the run file.
    edits+=(-e 's#^([[:space:]]*(configFilePath:|-)[[:space:]]*)\.\./components-bindings#\1./components-bindings#')
  fi
  sed -E "${edits[@]}" "$template" | cap_single_mode_deliveries > "$out"
  if ! grep -qE "^[[:space:]]*Messaging__Model:[[:space:]]*$model\$" "$out"; then
    echo "could not set Messaging__Model in $out" >&2; exit 1
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

# Stops a process this script started, for good: TERM, a second TERM after 3 s (Azurite 3.37 closes its services
# on the first and stays alive until a second), KILL after 15 s; then waits for it. One line if it took KILL.
stop_process() { # pid
  local pid="$1" tenths=0
  kill -TERM "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  while kill -0 "$pid" 2>/dev/null; do
    if [[ $tenths -eq 30 ]]; then kill -TERM "$pid" 2>/dev/null || true; fi
    if [[ $tenths -eq 150 ]]; then
      echo "process $pid ($(ps -o comm= -p "$pid" 2>/dev/null || echo gone)) did not end 15 s after TERM: killed" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
    sleep 0.1; tenths=$((tenths + 1))
  done
  wait "$pid" 2>/dev/null || true
}

started_pids=()
rabbitmq_started_by=""
cleanup() {
  # ${a[@]+...}: bash 3.2 treats an empty array as unset under set -u.
  for pid in ${started_pids[@]+"${started_pids[@]}"}; do stop_process "$pid"; done
  case "$rabbitmq_started_by" in
    systemctl) as_root systemctl stop rabbitmq-server || true ;;
    service) as_root service rabbitmq-server stop || true ;;
    detached) rabbitmqctl stop >/dev/null 2>&1 || true ;;
  esac
  if [[ -n "$rabbitmq_started_by" ]]; then echo "RabbitMQ: stopped (this script had started it)"; fi
}
trap cleanup EXIT

# Runs a command as root: directly when root, else through sudo if it needs no password.
as_root() {
  if [[ "$(id -u)" == 0 ]]; then "$@"; return; fi
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"; return; fi
  return 1
}

# One warning line if a Redis this script did not start keeps nothing, or only snapshots, across a
# crash; nothing if it has its append-only file on or cannot be asked.
check_redis_persistence() {
  command -v redis-cli >/dev/null 2>&1 || { echo "Redis: persistence unchecked (no redis-cli)" >&2; return 0; }
  local appendonly save
  appendonly="$(redis-cli -h 127.0.0.1 -p 6379 CONFIG GET appendonly 2>/dev/null | sed -n 2p)"
  save="$(redis-cli -h 127.0.0.1 -p 6379 CONFIG GET save 2>/dev/null | sed -n 2p)"
  if [[ "$appendonly" == yes ]]; then return 0; fi
  if [[ -z "$appendonly" ]]; then echo "Redis: persistence unchecked (CONFIG GET refused)" >&2; return 0; fi
  if [[ -z "$save" ]]; then
    echo "WARNING: the Redis on 6379 keeps nothing across a restart (appendonly no, save \"\"): a crash loses every order in it" >&2
  else
    echo "WARNING: the Redis on 6379 keeps only snapshots (appendonly no, save \"$save\"): a crash loses what came after the last one" >&2
  fi
}

start_redis() {
  if listening 6379; then echo "Redis: already listening on 6379"; check_redis_persistence; return; fi
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "Redis is not installed: apt-get install redis-server (or run one on 127.0.0.1:6379)." >&2; exit 1
  fi
  mkdir -p "$ROOT/.tools/redis-data"
  local args=() arg
  while IFS= read -r arg; do args+=("$arg"); done < <(redis_persistence_args)
  redis-server --port 6379 --bind 127.0.0.1 "${args[@]}" \
    --logfile "$ROOT/.tools/redis.log" --dir "$ROOT/.tools/redis-data" &
  started_pids+=("$!")
  wait_for_port 6379 10
  echo "Redis: started (data .tools/redis-data, log .tools/redis.log)"
}

# Keeps the streams bounded without a length cap (a cap drops entries no consumer has read,
# docs/dapr-sidecar.md, "Measured on the current code"): every STREAM_TRIM_SECONDS, each stream is trimmed up to the
# oldest entry one of its consumer groups still needs (scripts/trim-streams.lua).
trim_streams_periodically() {
  if ! command -v redis-cli >/dev/null 2>&1; then
    echo "WARNING: no redis-cli: streams are not trimmed and grow with every burst" >&2; return 0
  fi
  local every="${STREAM_TRIM_SECONDS:-30}"
  # Its sleep is a child of its own, stopped with it (a plain sleep would outlive the loop by up to a period).
  (sleeper=""; trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
   while :; do
     sleep "$every" & sleeper=$!; wait "$sleeper"
     redis-cli -h 127.0.0.1 -p 6379 --eval "$ROOT/scripts/trim-streams.lua" >/dev/null 2>&1 </dev/null || true
   done) &
  started_pids+=("$!")
}

start_azurite() {
  if listening "$AZURITE_BLOB_PORT" && listening "$AZURITE_QUEUE_PORT"; then
    echo "Azurite: already listening on $AZURITE_BLOB_PORT/$AZURITE_QUEUE_PORT"; return
  fi
  local azurite="$ROOT/.tools/node_modules/.bin/azurite"
  [[ -x "$azurite" ]] || azurite="$(command -v azurite || true)"
  if [[ -z "$azurite" ]]; then
    echo "Azurite is not installed: run scripts/install-tools.sh (needs Node.js and npm)." >&2; exit 1
  fi
  mkdir -p "$AZURITE_LOCATION"
  local args=() arg
  while IFS= read -r arg; do args+=("$arg"); done < <(azurite_args)
  "$azurite" "${args[@]}" > "$AZURITE_LOG" 2>&1 &
  azurite_pid=$!
  started_pids+=("$azurite_pid")
  wait_for_port "$AZURITE_BLOB_PORT" 30 && wait_for_port "$AZURITE_QUEUE_PORT" 30
  echo "Azurite: started (pid $azurite_pid, data ${AZURITE_LOCATION#"$ROOT"/}, log ${AZURITE_LOG#"$ROOT"/})"
}

rabbitmq_help() {
  cat >&2 <<'MSG'
RabbitMQ is needed by the bindings model (components-bindings/, guest user on 127.0.0.1:5672).
  Debian/Ubuntu: sudo apt-get install rabbitmq-server   (starts it as a service)
  macOS:         brew install rabbitmq && brew services start rabbitmq
  elsewhere:     https://www.rabbitmq.com/docs/download
Or run any RabbitMQ 3.x on 127.0.0.1:5672 whose guest user may log in over loopback.
MSG
}

# Uses a RabbitMQ that listens on 5672, else starts the installed one (systemd, then the service
# command, then rabbitmq-server -detached) and remembers how, so that cleanup stops only that.
start_rabbitmq() {
  if listening 5672; then echo "RabbitMQ: already listening on 5672"; return; fi
  if [[ -d /run/systemd/system ]] && systemctl cat rabbitmq-server.service >/dev/null 2>&1 \
    && as_root systemctl start rabbitmq-server; then
    rabbitmq_started_by=systemctl
  elif [[ -x /etc/init.d/rabbitmq-server ]] && command -v service >/dev/null 2>&1 \
    && as_root service rabbitmq-server start; then
    rabbitmq_started_by=service
  elif command -v rabbitmq-server >/dev/null 2>&1 && rabbitmq-server -detached; then
    rabbitmq_started_by=detached
  else
    echo "RabbitMQ: nothing listens on 127.0.0.1:5672 and none could be started." >&2
    rabbitmq_help
    exit 1
  fi
  # A cold RabbitMQ takes a few seconds (Erlang VM, then its plugins) before it accepts AMQP.
  wait_for_port 5672 60
  echo "RabbitMQ: started ($rabbitmq_started_by; stopped again on exit)"
}

# The vhost 'orders' (rabbitmq_vhost_commands above): made with rabbitmqctl (as root when it needs
# it), else with the management API as guest; one warning line when neither answers or the vhost
# exists with another default.
# rabbitmqctl reads its standard input: never let it take a caller's (a loop's lines, the terminal).
rabbitmqctl_run() { rabbitmqctl "$@" 2>/dev/null </dev/null || as_root rabbitmqctl "$@" 2>/dev/null </dev/null; }
ensure_rabbitmq_vhost() {
  local type=""
  if command -v rabbitmqctl >/dev/null 2>&1 && rabbitmqctl_run list_vhosts name >/dev/null; then
    local command words exists=false
    if rabbitmqctl_run list_vhosts name | grep -qx "$RABBITMQ_VHOST"; then exists=true; fi
    # The calls come in on descriptor 3, so that no command in the loop can take them from its standard input.
    while IFS= read -r command <&3; do
      read -ra words <<< "$command"
      if [[ "${words[0]}" == add_vhost ]] && $exists; then continue; fi
      rabbitmqctl_run "${words[@]}" >/dev/null || echo "WARNING: rabbitmqctl $command failed" >&2
    done 3< <(rabbitmq_vhost_commands)
    if ! rabbitmqctl_run -q list_permissions -p "$RABBITMQ_VHOST" | awk '$1 == "guest" { found = 1 } END { exit !found }'; then
      echo "WARNING: RabbitMQ's user guest has no permissions on the vhost '$RABBITMQ_VHOST': every sidecar will be refused (403); run  rabbitmqctl set_permissions -p $RABBITMQ_VHOST guest '.*' '.*' '.*'" >&2
    fi
    type="$(rabbitmqctl_run list_vhosts name default_queue_type | awk -v v="$RABBITMQ_VHOST" '$1 == v { print $2 }')"
  elif command -v curl >/dev/null 2>&1 && curl -fsS -u guest:guest http://127.0.0.1:15672/api/overview >/dev/null 2>&1; then
    local api=http://127.0.0.1:15672/api
    curl -fsS -u guest:guest "$api/vhosts/$RABBITMQ_VHOST" >/dev/null 2>&1 \
      || curl -fsS -u guest:guest -X PUT -H 'content-type: application/json' \
        -d '{"default_queue_type":"quorum"}' "$api/vhosts/$RABBITMQ_VHOST" >/dev/null
    curl -fsS -u guest:guest -X PUT -H 'content-type: application/json' \
      -d '{"configure":".*","write":".*","read":".*"}' "$api/permissions/$RABBITMQ_VHOST/guest" >/dev/null
    type="$(curl -fsS -u guest:guest "$api/vhosts/$RABBITMQ_VHOST" | sed -n 's/.*"default_queue_type":"\([a-z]*\)".*/\1/p')"
  else
    echo "WARNING: RabbitMQ unchecked: neither rabbitmqctl nor the management API answers; the vhost '$RABBITMQ_VHOST' must exist with default queue type quorum" >&2
    return 0
  fi
  if [[ "$type" != quorum ]]; then
    echo "WARNING: RabbitMQ's vhost '$RABBITMQ_VHOST' has default queue type '${type:-classic}', not quorum: a broker crash loses the queued orders" >&2
  fi
}

if $vhost_only; then ensure_rabbitmq_vhost; exit 0; fi

# What consumes each queue (bindings) or stream (pub/sub), one "name app-id" line each. Bindings: each
# input component's queue and the app it is scoped to. Pub/sub: each topic's stream and the app that
# subscribes to it in its code (OrderTopology; the deployment tests hold the two together).
PUBSUB_SUBSCRIPTIONS="q-order-ingress distributor
q-order-express receiver-express
q-order-standard receiver-standard"
expected_consumers() {
  if [ "$family" = pubsub ]; then printf '%s\n' "$PUBSUB_SUBSCRIPTIONS"; return; fi
  local file
  for file in "$ROOT"/components-bindings/*-input.yaml; do
    awk '/^[[:space:]]*- name: queueName[[:space:]]*$/ { getline; sub(/^[[:space:]]*value:[[:space:]]*/, ""); queue = $0 }
      /^scopes:/ { scoped = 1; next }
      scoped && /^[[:space:]]*- / { sub(/^[[:space:]]*- /, ""); print queue, $0; exit }' "$file"
  done
}

# pubsub.redis names its consumer group after the app id, unless the component sets consumerID.
pubsub_group_of() { # app-id
  local id
  id="$(awk '/^[[:space:]]*- name: consumerID[[:space:]]*$/ { getline; sub(/^[[:space:]]*value:[[:space:]]*/, ""); gsub(/"/, ""); print; exit }' \
    "$ROOT/components-pubsub/order-pubsub.yaml")"
  id="${id//\{appID\}/$1}"
  echo "${id:-$1}"
}

# The sidecar log of an app under dapr run -f (<appDirPath>/.dapr/logs/<app-id>_daprd_<time>.log),
# relative to the root: the newest one, or the pattern while there is none.
sidecar_log() { # app-id
  local dir file newest=""
  dir="$(awk -v id="$1" '$0 ~ "appID:[[:space:]]*" id "[[:space:]]*$" { found = 1; next }
    found && /appDirPath:/ { sub(/.*appDirPath:[[:space:]]*/, ""); sub(/^\.\//, ""); sub(/\/$/, ""); print; exit }' "$template")"
  for file in "$ROOT/$dir/.dapr/logs/$1"_daprd_*.log; do
    if [ -f "$file" ] && { [ -z "$newest" ] || [ "$file" -nt "$newest" ]; }; then newest="$file"; fi
  done
  if [ -n "$newest" ]; then echo "${newest#"$ROOT"/}"; else echo "$dir/.dapr/logs/$1_daprd_*.log"; fi
}

# 0 when every queue has its consumers or every stream its consumer group; else one line naming the
# first that has not and its sidecar's log, and 1; 3 with one line when the broker cannot be asked.
missing_consumers() {
  local name app count listing group expected
  # Read whole first: the loops below may stop early, which would cut off a writer mid-line. They read it on
# descriptor 3: rabbitmqctl and redis-cli read their standard input, and would take the loop's lines.
  expected="$(expected_consumers)"
  if [ "$model" = bindings ]; then
    if ! command -v rabbitmqctl >/dev/null 2>&1 \
      || ! listing="$(rabbitmqctl_run -s list_queues -p "$RABBITMQ_VHOST" name consumers)"; then
      echo "consumers unchecked: rabbitmqctl cannot list the queues of RabbitMQ's vhost '$RABBITMQ_VHOST'"; return 3
    fi
    while read -r name app <&3; do
      count="$(printf '%s\n' "$listing" | awk -v q="$name" '$1 == q { n = $2 } END { print n + 0 }')"
      if [ "$count" -lt "$consumers" ]; then
        echo "queue $name has $count of $consumers consumers: read $(sidecar_log "$app")"; return 1
      fi
    done 3<<< "$expected"
  else
    if ! command -v redis-cli >/dev/null 2>&1; then echo "consumer groups unchecked: no redis-cli"; return 3; fi
    while read -r name app <&3; do
      group="$(pubsub_group_of "$app")"
      if ! redis-cli -h 127.0.0.1 -p 6379 XINFO GROUPS "$name" 2>/dev/null </dev/null \
        | awk -v g="$group" 'previous == "name" && $0 == g { found = 1 } { previous = $0 } END { exit !found }'; then
        echo "stream $name has no consumer group $group: read $(sidecar_log "$app")"; return 1
      fi
    done 3<<< "$expected"
  fi
}
if $check_consumers; then
  status=0; missing_consumers || status=$?; exit "$status"
fi

# Waits until missing_consumers finds nothing; after READY_TIMEOUT seconds, one line and 1. Returns 0
# at once if dapr run ended (its exit status then tells) or the broker cannot be asked (one warning).
wait_for_consumers() {
  local waited=0 line status
  while kill -0 "$dapr_pid" 2>/dev/null; do
    status=0; line="$(missing_consumers)" || status=$?
    case "$status" in
      0)
        if [ "$model" = bindings ]; then echo "ready: every queue has its $consumers consumers"
        else echo "ready: every stream has its consumer group"; fi
        return 0 ;;
      3) echo "WARNING: $line" >&2; return 0 ;;
    esac
    if [ "$waited" -ge "$ready_timeout" ]; then echo "not ready after $ready_timeout s: $line" >&2; return 1; fi
    sleep 2; waited=$((waited + 2))
  done
}

# What `order-load run` measures over a burst (src/OrderDistribution.LoadTool/Costs/LocalProcesses.cs): in .dapr/pids,
# one file per role with "<pid> <start time>" (/proc/<pid>/stat's 22nd field, so a reused pid is not read): trio (dapr
# run, whose children are the apps and sidecars), broker (as the broker itself tells its pid), store (the Azurite this
# script started); and queues, the broker to ask for the orders waiting. Found from what was started, never by name.
azurite_pid=""
record_process() { # role pid
  [ -n "$2" ] || return 0
  local start="-"
  if [ -r "/proc/$2/stat" ]; then start="$(sed 's/^.*) //' "/proc/$2/stat" | cut -d' ' -f20)"; fi
  mkdir -p "$ROOT/.dapr/pids" && echo "$2 $start" > "$ROOT/.dapr/pids/$1"
}
record_processes() { # storage|trio
  if [ -n "$azurite_pid" ]; then record_process store "$azurite_pid"; fi
  [ "$1" = trio ] || return 0
  record_process trio "$dapr_pid"
  if [ "$family" = pubsub ]; then
    record_process broker "$(redis-cli -h 127.0.0.1 -p 6379 INFO server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p')"
    echo "redis 127.0.0.1:6379" > "$ROOT/.dapr/pids/queues"
  else
    record_process broker "$(rabbitmqctl_run eval 'list_to_integer(os:getpid()).' | tr -dc '0-9')"
    echo "rabbitmq $RABBITMQ_VHOST" > "$ROOT/.dapr/pids/queues"
  fi
}

if $storage_only; then
  start_azurite
  record_processes storage
  echo "Storage only: Azurite on 127.0.0.1:$AZURITE_BLOB_PORT until Ctrl+C"
  # Waited for as a child, so that INT or TERM ends the wait at once (cleanup then stops Azurite) and the sleep too.
  sleeper=""
  trap 'kill "$sleeper" 2>/dev/null; exit 0' INT TERM
  while :; do sleep 3600 & sleeper=$!; wait "$sleeper" || true; done
fi

check_dapr
case "$family" in
  pubsub) start_redis; trim_streams_periodically ;;
  bindings) start_rabbitmq; ensure_rabbitmq_vhost ;;
esac
start_azurite

# Each app runs its published build (the run files' commands): compiled ahead of time for this machine and
# run without tiered compilation, as the container images are. Both receivers run the one receiver build.
for project in Distributor Receiver; do
  dotnet publish -c Release --use-current-runtime --self-contained false \
    -o "$ROOT/src/OrderDistribution.$project/bin/run" "$ROOT/src/OrderDistribution.$project/OrderDistribution.$project.csproj"
done

run_file="$(render)"
echo "dapr run -f $run_file   (model $model; Ctrl+C stops)"
# In the background, so that the script can wait for the consumers meanwhile. A background job of a
# script starts with SIGINT ignored, so this script passes Ctrl+C (and TERM) on as TERM, which dapr
# run takes as it takes Ctrl+C: it stops the apps and sidecars.
dapr run -f "$run_file" &
dapr_pid=$!
record_processes trio
trap 'kill -TERM "$dapr_pid" 2>/dev/null || true' INT TERM
ready=true
if ! wait_for_consumers; then ready=false; kill -TERM "$dapr_pid" 2>/dev/null || true; fi
# wait returns early when a signal arrives (the trap passes it on): until dapr run has stopped.
while kill -0 "$dapr_pid" 2>/dev/null; do wait "$dapr_pid" 2>/dev/null || true; done
$ready
