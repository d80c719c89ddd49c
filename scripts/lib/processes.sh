# shellcheck shell=bash
# Processes the scripts start and stop, and the ports they wait on. Sourced by scripts/run-local.sh and
# scripts/compare-local.sh. Bash 3.2 compatible (macOS).

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() { wait_for_port_of "" "$@"; } # port seconds

# Waits for a process it started (none: "") to listen; false at once if that process has ended.
wait_for_port_of() { # pid port seconds
  for _ in $(seq 1 "$3"); do
    listening "$2" && return 0
    if [[ -n "$1" ]] && ! kill -0 "$1" 2>/dev/null; then
      echo "the process that was to listen on 127.0.0.1:$2 has ended" >&2; return 1
    fi
    sleep 1
  done
  echo "nothing listens on 127.0.0.1:$2 after $3 s" >&2; return 1
}

# Runs a command as root: directly when root, else through sudo if it needs no password.
as_root() {
  if [[ "$(id -u)" == 0 ]]; then "$@"; return; fi
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"; return; fi
  return 1
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

# A background job in a process group of its own, so that stopping it stops all it started. Job control
# is on only while the job starts: on for the whole run, bash would print "[1]+ Terminated ..." as each
# job ends.
start_group() {
  set -m
  "$@" &
  set +m
}

# Ctrl+C to the job's whole group (dapr run stops the apps and sidecars, run-local.sh what it
# started), then TERM after 30 s and KILL after 40 s while anything of the group is left (not only
# its leader: an Azurite that outlived run-local.sh too). A script started with Ctrl+C ignored (a
# background job of another script) passes that on to its jobs, which would never see it: TERM at once.
stop_group() { # pid
  local pid="$1" waited=0 signal=INT
  if [[ "$(trap -p INT)" == "trap -- '' SIGINT" ]]; then signal=TERM; fi
  kill "-$signal" -- "-$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  while kill -0 -- "-$pid" 2>/dev/null; do
    if [[ $waited -eq 30 ]]; then kill -TERM -- "-$pid" 2>/dev/null || true; fi
    if [[ $waited -eq 40 ]]; then
      echo "WARNING: processes of group $pid still ran 40 s after Ctrl+C: killed" >&2
      kill -KILL -- "-$pid" 2>/dev/null || true
    fi
    if [[ $waited -ge 45 ]]; then break; fi
    sleep 1; waited=$((waited + 1))
  done
  wait "$pid" 2>/dev/null || true
}

# What `order-load run` measures over a burst (src/OrderDistribution.LoadTool/Costs/LocalProcesses.cs): in .dapr/pids,
# one file per role with "<pid> <start time>" (/proc/<pid>/stat's 22nd field, so a reused pid is not read): trio (dapr
# run, whose children are the apps and sidecars), broker (as the broker itself tells its pid), store (the Azurite the
# script started); and queues, the broker to ask for the orders waiting. Found from what was started, never by name.
record_process() { # root role pid
  [ -n "$3" ] || return 0
  local start="-"
  if [ -r "/proc/$3/stat" ]; then start="$(sed 's/^.*) //' "/proc/$3/stat" | cut -d' ' -f20)"; fi
  mkdir -p "$1/.dapr/pids" && echo "$3 $start" > "$1/.dapr/pids/$2"
}
