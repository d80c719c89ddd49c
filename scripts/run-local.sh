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
#        scripts/run-local.sh --rabbitmq-management
#          enables RabbitMQ's management plugin for the node's next start, as the bindings model's
#          start does before it starts RabbitMQ, and exits
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
# The work is in scripts/lib/. Bash 3.2 compatible (macOS).
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/processes.sh
. "$ROOT/scripts/lib/processes.sh"
# shellcheck source=lib/azurite.sh
. "$ROOT/scripts/lib/azurite.sh"
# shellcheck source=lib/redis.sh
. "$ROOT/scripts/lib/redis.sh"
# shellcheck source=lib/rabbitmq.sh
. "$ROOT/scripts/lib/rabbitmq.sh"
# shellcheck source=lib/render.sh
. "$ROOT/scripts/lib/render.sh"
# shellcheck source=lib/consumers.sh
. "$ROOT/scripts/lib/consumers.sh"
# shellcheck source=lib/dapr.sh
. "$ROOT/scripts/lib/dapr.sh"

case "${1:-}" in
  --azurite-args) azurite_args; exit 0 ;;
  --redis-persistence-args) redis_persistence_args; exit 0 ;;
  --rabbitmq-vhost-commands) rabbitmq_vhost_commands; exit 0 ;;
  --rabbitmq-management) enable_rabbitmq_management; exit 0 ;;
esac
mode=run
case "${1:-}" in
  --rabbitmq-vhost) mode=vhost; shift ;;
  --render-only) mode=render; shift ;;
  --missing-consumers) mode=consumers; shift ;;
  --storage-only) mode=storage; shift ;;
esac
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

# The bindings model's consumers per queue: bindings.rabbitmq hands its app one message at a time, so they
# are how many orders its app takes on at once (BINDING_CONSUMERS_PER_QUEUE in Azure too, same default).
consumers="${BINDING_CONSUMERS_PER_QUEUE:-4}"
if [ "$model" = bindings ] && ! [[ "$consumers" =~ ^([1-9]|1[0-6])$ ]]; then
  echo "BINDING_CONSUMERS_PER_QUEUE must be a whole number from 1 to 16, not '$consumers'" >&2; exit 2
fi
ready_timeout="${READY_TIMEOUT:-300}"
if ! [[ "$ready_timeout" =~ ^[1-9][0-9]*$ ]]; then
  echo "READY_TIMEOUT must be a whole number of seconds, not '$ready_timeout'" >&2; exit 2
fi

# Settings that break every delivery without a word, refused with one line each: DAPR_*_ENDPOINT in this shell
# reach every app, which would all call that one sidecar; APP_API_TOKEN in the run file reaches the apps but not
# daprd, so every delivery would be answered 401 (the CLI passes the shell's env to both).
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

case "$mode" in
  render) render_run_file "$model" "$template" "$consumers"; exit 0 ;;
  vhost) ensure_rabbitmq_vhost; exit 0 ;;
  consumers) status=0; missing_consumers "$family" "$template" "$consumers" || status=$?; exit "$status" ;;
esac

started_pids=()
azurite_pid=""
dapr_pid=""
cleanup() {
  # ${a[@]+...}: bash 3.2 treats an empty array as unset under set -u.
  for pid in ${started_pids[@]+"${started_pids[@]}"}; do stop_process "$pid"; done
  stop_rabbitmq
}
trap cleanup EXIT

# The processes `order-load run` measures (record_process): the store, and with the trio its broker.
record_processes() {
  record_process "$ROOT" store "$azurite_pid"
  [ -n "$dapr_pid" ] || return 0
  record_process "$ROOT" trio "$dapr_pid"
  if [ "$family" = pubsub ]; then
    record_process "$ROOT" broker "$(redis_pid)"; echo "redis 127.0.0.1:6379" > "$ROOT/.dapr/pids/queues"
  else
    record_process "$ROOT" broker "$(rabbitmq_pid)"; echo "rabbitmq $RABBITMQ_VHOST" > "$ROOT/.dapr/pids/queues"
  fi
}

if [ "$mode" = storage ]; then
  start_azurite
  record_processes
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

run_file="$(render_run_file "$model" "$template" "$consumers")"
echo "dapr run -f $run_file   (model $model; Ctrl+C stops)"
# In the background, so that the script can wait for the consumers meanwhile. A background job of a
# script starts with SIGINT ignored, so this script passes Ctrl+C (and TERM) on as TERM, which dapr
# run takes as it takes Ctrl+C: it stops the apps and sidecars.
dapr run -f "$run_file" &
dapr_pid=$!
record_processes
trap 'kill -TERM "$dapr_pid" 2>/dev/null || true' INT TERM
ready=true
if ! wait_for_consumers "$dapr_pid" "$ready_timeout" "$family" "$template" "$consumers"; then
  ready=false; kill -TERM "$dapr_pid" 2>/dev/null || true
fi
# wait returns early when a signal arrives (the trap passes it on): until dapr run has stopped.
while kill -0 "$dapr_pid" 2>/dev/null; do wait "$dapr_pid" 2>/dev/null || true; done
$ready
