#!/usr/bin/env bash
# Compares the messaging models locally in one command. It measures storage alone first (order-load
# ceiling: that also warms the store, so no model's cold burst pays for Azurite's own warm-up); then,
# for each model in turn, it starts the trio (scripts/run-local.sh), waits until the apps and their
# sidecars are ready, runs the bursts (the first one after the start recorded as cold, the others as
# warm) and stops the trio; then it measures storage alone again and writes the report (order-load report).
# Usage: scripts/compare-local.sh [--runs 3] [--models pubsub-bulk,pubsub-single,bindings]
#                                 [--count 10000] [--ready-timeout 300] [--out DIR] [--broker-alone]
#                                 [extra order-load run arguments...]
# --broker-alone: at the end, RabbitMQ alone driven as the bindings drive it with components-bindings'
# setting (the benchmarks' bindings-broker line, docs/brokers.md; needs rabbitmq-server), printed
# beside the models and kept in DIR/bindings-broker.txt. The bindings model cannot be faster than it.
# Everything lands in DIR (default results/compare-<UTC time>): LOG.jsonl (the results; LOG.md renders
# them), each burst's per-second CSV (with its .cost.csv and .queues.csv: each component's CPU and peak memory, the orders waiting
# per queue, from what run-local.sh records in .dapr/pids), each trio's output (<model>.trio.log),
# report.md and report.png. Prices: container-apps-prices.env (docs/benchmark.md, "What a burst costs").
# A model whose trio is not ready in time, or one of whose bursts fails, is reported in one line
# (with the last error line of its trio's log when the trio ended at start) and named with that line
# under "Not compared" in report.md; its trio is stopped and the other models still run; the script
# then exits 1. Every trio it
# started is stopped on exit, a failure or Ctrl+C included, and so is the Azurite it started:
# Azurite runs for the whole comparison (run-local.sh --storage-only), so that every model and
# storage alone meet the same store.
# Ready means able to take a burst: every sidecar and app answers its health check, and every queue
# has its consumers (bindings) or every stream its consumer group (pub/sub), as run-local.sh
# --missing-consumers tells; a trio not ready in time is reported with the queue or stream missing
# and the sidecar log to read.
# RUN_LOCAL names another run-local script (the tests put a stand-in there). Runs on bash 3.2+.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN_LOCAL="${RUN_LOCAL:-$ROOT/scripts/run-local.sh}"
# shellcheck source=lib/processes.sh
. "$ROOT/scripts/lib/processes.sh"
# shellcheck source=lib/load-tool.sh
. "$ROOT/scripts/lib/load-tool.sh"
# What the trio answers when it can take a burst: each sidecar's health and each app's readiness.
READY_URLS="http://127.0.0.1:3501/v1.0/healthz http://127.0.0.1:3502/v1.0/healthz http://127.0.0.1:3503/v1.0/healthz
http://127.0.0.1:5001/health http://127.0.0.1:5002/health http://127.0.0.1:5003/health"
STORAGE_URL="http://127.0.0.1:10000/"

usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; }

runs=3
models="pubsub-bulk,pubsub-single,bindings"
count=10000
ready_timeout=300
broker_alone=false
out=""
args=()
need_value() { [[ $# -ge 2 ]] || { echo "$1 needs a value" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) need_value "$@"; runs="$2"; shift 2 ;;
    --models) need_value "$@"; models="$2"; shift 2 ;;
    --count) need_value "$@"; count="$2"; shift 2 ;;
    --ready-timeout) need_value "$@"; ready_timeout="$2"; shift 2 ;;
    --out) need_value "$@"; out="$2"; shift 2 ;;
    --broker-alone) broker_alone=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
for number in "$runs" "$count" "$ready_timeout"; do
  [[ "$number" =~ ^[1-9][0-9]*$ ]] || { echo "not a positive number: $number" >&2; exit 2; }
done
labels=""
for label in ${models//,/ }; do
  case "$label" in
    pubsub-bulk|pubsub-single|bindings) labels="$labels $label" ;;
    *) echo "unknown model '$label': use pubsub-bulk, pubsub-single or bindings" >&2; exit 2 ;;
  esac
done
[[ -n "$labels" ]] || { echo "no model to compare" >&2; exit 2; }
command -v curl >/dev/null 2>&1 || { echo "curl is needed to see when the trio is ready" >&2; exit 1; }

cd "$ROOT"
out="${out:-results/compare-$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
log="$out/LOG.jsonl"

trio_pid=""
storage_pid=""

stop_trio() {
  if [[ -n "$trio_pid" ]]; then stop_group "$trio_pid"; trio_pid=""; fi
}

cleanup() {
  stop_trio
  if [[ -n "$storage_pid" ]]; then stop_group "$storage_pid"; storage_pid=""; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The last line of a log that reads as an error, as ": <line>" (colour codes and control characters
# taken out, at most 300 characters), or nothing.
last_error() { # log
  local line
  line="$(grep -aiE 'error|fail|fatal|refused|denied|no access|exited|not installed|missing' "$1" 2>/dev/null | tail -n 1 \
    | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | tr -d '\000-\010\013-\037\177' | cut -c1-300)"
  if [[ -n "$line" ]]; then printf ': %s' "$line"; fi
}

failures=""
fail() { # label reason
  echo "$1: FAILED: $2" >&2
  failures="$failures
$1: FAILED: $2"
}

# 0 once every URL of READY_URLS answers and nothing is missing a consumer, 1 after SECONDS (what was
# missing last in not_ready), 2 if the trio's script ended first.
not_ready=""
wait_ready() { # seconds model
  local seconds="$1" waited=0 url ready status
  while [[ $waited -lt $seconds ]]; do
    kill -0 "$trio_pid" 2>/dev/null || return 2
    ready=true
    for url in $READY_URLS; do
      if ! curl -fsS -o /dev/null -m 2 "$url" >/dev/null 2>&1; then
        ready=false; not_ready="$url does not answer"; break
      fi
    done
    if $ready; then
      status=0
      not_ready="$("$ROOT/scripts/run-local.sh" --missing-consumers "$2")" || status=$?
      case "$status" in
        0) return 0 ;;
        1) ;;
        *) echo "WARNING: ${not_ready:-run-local.sh --missing-consumers exited $status}" >&2; return 0 ;;
      esac
    fi
    sleep 2; waited=$((waited + 2))
  done
  return 1
}

run_model() { # label
  local label="$1" burst start status ready=0
  echo "$label: starting the trio (log $out/$label.trio.log)"
  # The trio's own wait for its consumers starts later than this one (after the apps' publish), so
  # with the same timeout this one ends first and names what is missing.
  start_group env READY_TIMEOUT="$ready_timeout" "$RUN_LOCAL" "$label" > "$out/$label.trio.log" 2>&1
  trio_pid=$!
  wait_ready "$ready_timeout" "$label" || ready=$?
  case "$ready" in
    1) fail "$label" "the trio was not ready within $ready_timeout s: $not_ready (see $out/$label.trio.log)"; stop_trio; return 1 ;;
    2) fail "$label" "run-local.sh ended before the trio was ready (see $out/$label.trio.log)$(last_error "$out/$label.trio.log")"
       stop_trio; return 1 ;;
  esac
  for burst in $(seq 1 "$runs"); do
    start=warm
    if [[ $burst -eq 1 ]]; then start=cold; fi
    echo "$label: burst $burst of $runs ($start)"
    status=0
    order_load run --model "$label" --count "$count" --start "$start" --results "$log" \
      ${args[@]+"${args[@]}"} || status=$?
    if [[ $status -ne 0 ]]; then
      fail "$label" "burst $burst of $runs exited $status: $(exit_reason "$status") (see $out/$label.trio.log)"
      stop_trio
      return 1
    fi
  done
  stop_trio
  echo "$label: $runs bursts done, trio stopped"
}

wait_for_storage() {
  local waited=0
  while [[ $waited -lt 60 ]]; do
    kill -0 "$storage_pid" 2>/dev/null || return 1
    if curl -s -o /dev/null -m 2 "$STORAGE_URL" >/dev/null 2>&1; then return 0; fi
    sleep 1; waited=$((waited + 1))
  done
  return 1
}

dotnet build -c Release "$ROOT/src/OrderDistribution.LoadTool/OrderDistribution.LoadTool.csproj"
start_group "$RUN_LOCAL" --storage-only > "$out/storage.log" 2>&1
storage_pid=$!
if ! wait_for_storage; then
  echo "Azurite did not start (see $out/storage.log)" >&2
  exit 1
fi

measure_storage_alone() { # first|last
  local status=0
  echo "storage alone ($1): order-load ceiling"
  order_load ceiling --results "$log" || status=$?
  if [[ $status -ne 0 ]]; then fail storage-alone "ceiling ($1) exited $status: $(exit_reason "$status")"; fi
}

measure_storage_alone first
for label in $labels; do
  run_model "$label" || true
done
measure_storage_alone last

if [[ -f "$log" ]]; then
  order_load report "$log" || fail report "order-load report failed"
else
  fail report "no results file at $log: no burst and no ceiling finished"
fi
# What could not run is named in the report with why, not left out of the table without a word.
if [[ -n "$failures" ]]; then
  [[ -s "$out/report.md" ]] || printf '# Messaging models compared\n\nNo run of this comparison finished.\n' > "$out/report.md"
  { printf '\n## Not compared\n\nWhat could not run, and why; a model named here has in the table and the chart only the bursts it finished before (or none):\n\n'
    printf '%s\n' "$failures" | sed '/^$/d; s/^/- /'; } >> "$out/report.md"
fi

if $broker_alone; then
  echo "bindings broker alone: RabbitMQ driven as the bindings drive it (log $out/bindings-broker.txt)"
  if dotnet run -c Release --project "$ROOT/tests/OrderDistribution.Benchmarks" -- bindings-broker "$count" --as-configured \
    > "$out/bindings-broker.txt" 2>&1; then
    grep '^bindings broker' "$out/bindings-broker.txt" || true
  else
    fail broker-alone "the bindings-broker benchmark failed (see $out/bindings-broker.txt)"
  fi
fi

echo "comparison: $out (LOG.jsonl, LOG.md, report.md, report.png)"
if [[ -n "$failures" ]]; then
  echo "failed:$failures" >&2
  exit 1
fi
