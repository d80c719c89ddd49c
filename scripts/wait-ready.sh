#!/bin/sh
# Waits until the trio can take a burst, and says so in one line: for each app, its latest revision is its
# latest ready one, runs the deployed image (not the placeholder) with its probes, is Running and Healthy;
# every replica of it is running with every container ready (readiness: /health, which checks the sidecar and,
# in the receivers, their outbox with their own identity, so storage's role has applied); and its sidecar's
# last lines show no Service Bus authorization error (a role that has not applied yet).
# While waiting it prints, every 10 s, what it still waits for; after --timeout seconds (READY_TIMEOUT, default
# 900) it stops with one line naming each app and what failed, exit 1. --timeout 0 checks once (the burst
# script's refusal). Runs as azd's postdeploy hook; without az signed in it says what it did not check, exit 0.
# Usage: scripts/wait-ready.sh [--timeout SECONDS]
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -u
timeout="${READY_TIMEOUT:-900}"
if [ "${1:-}" = --timeout ]; then timeout="${2:-}"; fi
case "$timeout" in ''|*[!0-9]*) echo "--timeout needs a number of seconds" >&2; exit 2 ;; esac
APPS="distributor receiver-express receiver-standard"
# infra/modules/container-app.bicep's image until azd deploys the app's own.
PLACEHOLDER="mcr.microsoft.com/dotnet/samples"
# What a sidecar logs while its identity's Service Bus role has not applied (AMQP and ARM wordings).
AUTH_ERRORS='unauthorized|status code 40[13]|not authorized|does not have|insufficient|forbidden'

if [ -z "${AZURE_SUBSCRIPTION_ID:-}" ] && command -v azd >/dev/null 2>&1; then
  values="$(azd env get-values 2>/dev/null)" && eval "$values"
fi
not_checked() {
  echo "not checked whether the trio is ready for a burst: $1. To check: az login && sh scripts/wait-ready.sh"
  exit 0
}
for name in AZURE_SUBSCRIPTION_ID AZURE_RESOURCE_GROUP; do
  eval "value=\${$name:-}"
  [ -n "$value" ] || not_checked "$name is not set (run it as the azd hook, or after azd provision)"
done
command -v az >/dev/null 2>&1 || not_checked "az is not installed"
az account show --subscription "$AZURE_SUBSCRIPTION_ID" --query id -o tsv >/dev/null 2>&1 ||
  not_checked "az is not signed in to subscription $AZURE_SUBSCRIPTION_ID (azd auth login does not sign in az)"

error="$(mktemp)"
trap 'rm -f "$error"' EXIT
app_az() { # APP ARGUMENTS...: one az containerapp call for APP; its first error line on stderr when it fails
  app="$1"; shift
  az containerapp "$@" --subscription "$AZURE_SUBSCRIPTION_ID" --resource-group "$AZURE_RESOURCE_GROUP" \
    --name "$app" -o tsv 2>"$error" || { echo "az failed: $(grep -m1 . "$error" || echo 'no error text')" >&2; return 1; }
}

# Why APP cannot take a burst now, in a few words; nothing when it can.
why_not_ready() { # APP
  state="$(app_az "$1" show --query "[properties.latestRevisionName, properties.latestReadyRevisionName, \
properties.template.containers[0].image, length(properties.template.containers[0].probes || \`[]\`)]" 2>&1 |
    tr '\n' '\t')" || { echo "$state"; return; }
  latest="$(echo "$state" | cut -f1)"; ready="$(echo "$state" | cut -f2)"; image="$(echo "$state" | cut -f3)"
  probes="$(echo "$state" | cut -f4)"
  case "$image" in "$PLACEHOLDER"*|'') echo "it runs no image of its own yet (${image:-none}): azd deploy has not run"; return ;; esac
  [ "$probes" != 0 ] || { echo "its revision has no probes, so ready says nothing"; return; }
  [ "$latest" = "$ready" ] || { echo "its latest revision $latest is not ready yet (latest ready: ${ready:-none})"; return; }
  run="$(app_az "$1" revision show --revision "$latest" --query "[properties.runningState, properties.healthState]" 2>&1 |
    tr '\t\n' '  ' | sed 's/ *$//')" || { echo "$run"; return; }
  case "$run" in Running*Healthy*) ;; *) echo "revision $latest is $run"; return ;; esac
  replicas="$(app_az "$1" replica list --revision "$latest" \
    --query "[].join(' ', [name, properties.runningState || '-', to_string(length(properties.containers[?ready != \`true\`]))])" 2>&1)" ||
    { echo "$replicas"; return; }
  [ -n "$replicas" ] || { echo "revision $latest runs no replica"; return; }
  echo "$replicas" | while read -r replica running unready; do
    if [ "$running" != Running ] || [ "$unready" != 0 ]; then
      echo "replica $replica is $running with $unready container(s) not ready (readiness: /health)"; break
    fi
  done | grep . && return
  denied="$(app_az "$1" logs show --revision "$latest" --container daprd --type console --tail 200 --format text 2>&1 |
    grep -Ei "$AUTH_ERRORS" | tail -n 1 | cut -c1-160)"
  [ -z "$denied" ] || echo "its sidecar is refused by Service Bus (its role may not have applied yet): ... $denied"
}

waited=0
while :; do
  pending=""
  for app in $APPS; do
    reason="$(why_not_ready "$app")"
    [ -z "$reason" ] || pending="${pending:+$pending; }$app: $reason"
  done
  if [ -z "$pending" ]; then
    echo "ready for a burst: $(echo "$APPS" | sed 's/ /, /g') (latest revisions running, healthy, every replica ready, no Service Bus refusal)"
    exit 0
  fi
  [ "$waited" -lt "$timeout" ] || break
  echo "waiting for the trio to be ready for a burst ($waited s of $timeout s): $pending"
  sleep 10; waited=$((waited + 10))
done
[ "$timeout" -eq 0 ] || waited_text=" after $waited s"
echo "not ready for a burst${waited_text:-}: $pending"
exit 1
