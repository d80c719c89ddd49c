# shellcheck shell=bash
# Whether the trio can take a burst: every queue with its consumers (bindings) or every stream with its
# consumer group (pub/sub); sidecars and apps answer their health checks while a binding cannot consume.
# Sourced by scripts/run-local.sh after ROOT and the broker functions (rabbitmq.sh, redis.sh).

# What consumes each queue (bindings) or stream (pub/sub), one "name app-id" line each. Bindings: each
# input component's queue and the app it is scoped to. Pub/sub: each topic's stream and the app that
# subscribes to it in its code (OrderTopology; the deployment tests hold the two together).
PUBSUB_SUBSCRIPTIONS="q-order-ingress distributor
q-order-express receiver-express
q-order-standard receiver-standard"
expected_consumers() { # family
  if [ "$1" = pubsub ]; then printf '%s\n' "$PUBSUB_SUBSCRIPTIONS"; return; fi
  local file
  for file in "$ROOT"/components-bindings/*-input.yaml; do
    awk '/^[[:space:]]*- name: queueName[[:space:]]*$/ { getline; sub(/^[[:space:]]*value:[[:space:]]*/, ""); queue = $0 }
      /^scopes:/ { scoped = 1; next }
      scoped && /^[[:space:]]*- / { sub(/^[[:space:]]*- /, ""); print queue, $0; exit }' "$file"
  done
}

# The sidecar log of an app under dapr run -f (<appDirPath>/.dapr/logs/<app-id>_daprd_<time>.log),
# relative to the root: the newest one, or the pattern while there is none.
sidecar_log() { # run-file app-id
  local dir file newest=""
  dir="$(awk -v id="$2" '$0 ~ "appID:[[:space:]]*" id "[[:space:]]*$" { found = 1; next }
    found && /appDirPath:/ { sub(/.*appDirPath:[[:space:]]*/, ""); sub(/^\.\//, ""); sub(/\/$/, ""); print; exit }' "$1")"
  for file in "$ROOT/$dir/.dapr/logs/$2"_daprd_*.log; do
    if [ -f "$file" ] && { [ -z "$newest" ] || [ "$file" -nt "$newest" ]; }; then newest="$file"; fi
  done
  if [ -n "$newest" ]; then echo "${newest#"$ROOT"/}"; else echo "$dir/.dapr/logs/$2_daprd_*.log"; fi
}

# 0 when every queue has its consumers or every stream its consumer group; else one line naming the
# first that has not and its sidecar's log, and 1; 3 with one line when the broker cannot be asked.
missing_consumers() { # family run-file consumers-per-queue
  local name app count listing group expected
  # Read whole first: the loops below may stop early, which would cut off a writer mid-line. They read it on
  # descriptor 3: rabbitmqctl and redis-cli read their standard input, and would take the loop's lines.
  expected="$(expected_consumers "$1")"
  if [ "$1" = bindings ]; then
    if ! listing="$(queue_consumers)"; then
      echo "consumers unchecked: rabbitmqctl cannot list the queues of RabbitMQ's vhost '$RABBITMQ_VHOST'"; return 3
    fi
    while read -r name app <&3; do
      count="$(printf '%s\n' "$listing" | awk -v q="$name" '$1 == q { n = $2 } END { print n + 0 }')"
      if [ "$count" -lt "$3" ]; then
        echo "queue $name has $count of $3 consumers: read $(sidecar_log "$2" "$app")"; return 1
      fi
    done 3<<< "$expected"
  else
    if ! command -v redis-cli >/dev/null 2>&1; then echo "consumer groups unchecked: no redis-cli"; return 3; fi
    while read -r name app <&3; do
      group="$(pubsub_group_of "$app")"
      if ! stream_has_group "$name" "$group"; then
        echo "stream $name has no consumer group $group: read $(sidecar_log "$2" "$app")"; return 1
      fi
    done 3<<< "$expected"
  fi
}

# Waits until missing_consumers finds nothing; after TIMEOUT seconds, one line and 1. Returns 0 at once if
# the process PID ended (its exit status then tells) or the broker cannot be asked (one warning).
wait_for_consumers() { # pid timeout family run-file consumers-per-queue
  local waited=0 line status
  while kill -0 "$1" 2>/dev/null; do
    status=0; line="$(missing_consumers "$3" "$4" "$5")" || status=$?
    case "$status" in
      0)
        if [ "$3" = bindings ]; then echo "ready: every queue has its $5 consumers"
        else echo "ready: every stream has its consumer group"; fi
        return 0 ;;
      3) echo "WARNING: $line" >&2; return 0 ;;
    esac
    if [ "$waited" -ge "$2" ]; then echo "not ready after $2 s: $line" >&2; return 1; fi
    sleep 2; waited=$((waited + 2))
  done
}
