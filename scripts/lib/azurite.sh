# shellcheck shell=bash
# Azurite, the local blob store. Sourced by scripts/run-local.sh after ROOT is set.
# Its ports are the ones the components and the load tool use; AZURITE_BLOB_PORT, AZURITE_QUEUE_PORT,
# AZURITE_TABLE_PORT, AZURITE_LOCATION and AZURITE_LOG move them and its data and log, for a test beside
# another Azurite. Its data stays on disk: in memory it slows down sharply past about 10,000 blobs.
AZURITE_BLOB_PORT="${AZURITE_BLOB_PORT:-10000}"
AZURITE_QUEUE_PORT="${AZURITE_QUEUE_PORT:-10001}"
AZURITE_TABLE_PORT="${AZURITE_TABLE_PORT:-10002}"
AZURITE_LOCATION="${AZURITE_LOCATION:-$ROOT/.tools/azurite-data}"
AZURITE_LOG="${AZURITE_LOG:-$ROOT/.tools/azurite.log}"

# Azurite's command line, one argument per line. Without --debug unless AZURITE_DEBUG=1: its debug log
# slows uploads down (docs/local-run.md, "Start").
azurite_args() {
  printf '%s\n' --silent --location "$AZURITE_LOCATION" \
    --blobHost 127.0.0.1 --queueHost 127.0.0.1 --tableHost 127.0.0.1 --skipApiVersionCheck \
    --blobPort "$AZURITE_BLOB_PORT" --queuePort "$AZURITE_QUEUE_PORT" --tablePort "$AZURITE_TABLE_PORT"
  if [[ "${AZURITE_DEBUG:-0}" == 1 ]]; then
    printf '%s\n' --debug "$ROOT/.tools/azurite-debug.log"
  fi
}

# Starts Azurite unless something listens on its ports; its pid then in azurite_pid and started_pids.
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
  # Given up on if it exits, or does not listen within a minute (a loaded machine needs more than seconds).
  local port
  for port in "$AZURITE_BLOB_PORT" "$AZURITE_QUEUE_PORT"; do
    if ! wait_for_port_of "$azurite_pid" "$port" 60; then
      echo "Azurite did not start: $(tail -n 1 "$AZURITE_LOG" 2>/dev/null | cut -c1-200) (log: $AZURITE_LOG)" >&2
      exit 1
    fi
  done
  echo "Azurite: started (pid $azurite_pid, data ${AZURITE_LOCATION#"$ROOT"/}, log ${AZURITE_LOG#"$ROOT"/})"
}
