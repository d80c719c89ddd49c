# shellcheck shell=bash
# Redis, the pub/sub models' broker, on 127.0.0.1:6379. Sourced by scripts/run-local.sh after ROOT is set.

# Redis's persistence, one argument per line: every write goes to the append-only file and is fsynced
# before Redis answers it, so a crash (even of the machine) loses nothing Redis acknowledged; no RDB
# snapshots, the AOF alone is the data (docs/brokers.md).
redis_persistence_args() {
  printf '%s\n' --appendonly yes --appendfsync always --save ""
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

# Starts Redis unless something listens on 6379 (then checks its persistence); its pid in started_pids.
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
# docs/dapr-sidecar.md, "Measured on the current code"): every STREAM_TRIM_SECONDS (30), each stream is
# trimmed up to the oldest entry one of its consumer groups still needs (scripts/trim-streams.lua).
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

# The pid Redis gives for itself, or nothing.
redis_pid() {
  redis-cli -h 127.0.0.1 -p 6379 INFO server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p'
}

# pubsub.redis names its consumer group after the app id, unless the component sets consumerID.
pubsub_group_of() { # app-id
  local id
  id="$(awk '/^[[:space:]]*- name: consumerID[[:space:]]*$/ { getline; sub(/^[[:space:]]*value:[[:space:]]*/, ""); gsub(/"/, ""); print; exit }' \
    "$ROOT/components-pubsub/order-pubsub.yaml")"
  id="${id//\{appID\}/$1}"
  echo "${id:-$1}"
}

# 0 when the stream has the consumer group, else 1.
stream_has_group() { # stream group
  redis-cli -h 127.0.0.1 -p 6379 XINFO GROUPS "$1" 2>/dev/null </dev/null \
    | awk -v g="$2" 'previous == "name" && $0 == g { found = 1 } { previous = $0 } END { exit !found }'
}
