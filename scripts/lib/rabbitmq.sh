# shellcheck shell=bash
# RabbitMQ, the bindings model's broker, on 127.0.0.1:5672. Sourced by scripts/run-local.sh.

# The bindings' queues live in the vhost 'orders' (components-bindings: host .../orders), whose default
# queue type is quorum: bindings.rabbitmq declares its queue with no x-queue-type, and quorum queues
# write every message to their log before it counts as enqueued (docs/brokers.md, "RabbitMQ (bindings
# model)"). The rabbitmqctl calls that make it, one per line, arguments split on spaces (the tests make
# their RabbitMQ's vhost with these).
RABBITMQ_VHOST=orders
rabbitmq_vhost_commands() {
  printf '%s\n' "add_vhost $RABBITMQ_VHOST --default-queue-type quorum" \
    "set_permissions -p $RABBITMQ_VHOST guest .* .* .*"
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

# The management plugin, written into the enabled plugins file (RABBITMQ_ENABLED_PLUGINS_FILE moves it) for the
# node's next start: order-load reads the queue depths from its API on 127.0.0.1:15672 once a second, where
# rabbitmqctl would start an Erlang VM per reading. One warning line when it cannot be enabled.
# The CLI's Erlang VM without busy-waiting schedulers: on a busy machine they spin against the other processes,
# and the call takes over a minute instead of seconds.
enable_rabbitmq_management() {
  local plugins=(env "RABBITMQ_CTL_ERL_ARGS=${RABBITMQ_CTL_ERL_ARGS:-+sbwt none +sbwtdcpu none +sbwtdio none}"
    rabbitmq-plugins enable --offline rabbitmq_management)
  if "${plugins[@]}" >/dev/null 2>&1 </dev/null || as_root "${plugins[@]}" >/dev/null 2>&1 </dev/null; then
    return 0
  fi
  echo "WARNING: rabbitmq-plugins could not enable rabbitmq_management: order-load reads the queue depths with rabbitmqctl every 10 s" >&2
}

# Uses a RabbitMQ that listens on 5672, else starts the installed one (systemd, then the service
# command, then rabbitmq-server -detached) and remembers how in rabbitmq_started_by, so that
# stop_rabbitmq stops only that.
rabbitmq_started_by=""
start_rabbitmq() {
  if listening 5672; then echo "RabbitMQ: already listening on 5672"; return; fi
  enable_rabbitmq_management
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

stop_rabbitmq() {
  case "$rabbitmq_started_by" in
    systemctl) as_root systemctl stop rabbitmq-server || true ;;
    service) as_root service rabbitmq-server stop || true ;;
    detached) rabbitmqctl stop >/dev/null 2>&1 || true ;;
  esac
  if [[ -n "$rabbitmq_started_by" ]]; then echo "RabbitMQ: stopped (this script had started it)"; fi
}

# rabbitmqctl reads its standard input: never let it take a caller's (a loop's lines, the terminal).
rabbitmqctl_run() { rabbitmqctl "$@" 2>/dev/null </dev/null || as_root rabbitmqctl "$@" 2>/dev/null </dev/null; }

# The vhost 'orders' (rabbitmq_vhost_commands above): made with rabbitmqctl (as root when it needs
# it), else with the management API as guest; one warning line when neither answers or the vhost
# exists with another default.
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

# The pid the broker gives for itself, or nothing.
rabbitmq_pid() {
  rabbitmqctl_run eval 'list_to_integer(os:getpid()).' | tr -dc '0-9'
}

# Each queue of the vhost with its consumers, "name count" per line; status 3 when rabbitmqctl cannot list them.
queue_consumers() {
  command -v rabbitmqctl >/dev/null 2>&1 && rabbitmqctl_run -s list_queues -p "$RABBITMQ_VHOST" name consumers || return 3
}
