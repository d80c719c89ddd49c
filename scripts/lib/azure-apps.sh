# shellcheck shell=bash
# shellcheck disable=SC2154 # subscription and az_error are the burst script's
# The container apps of a deployed environment, read with az. Sourced by scripts/azure-burst.sh after ROOT is set.
APPS="distributor receiver-express receiver-standard"

# The revision an app runs: its latest one (scripts/wait-ready.sh has found it ready). Status 1, with the
# reason on stderr, when az fails.
latest_revision() { # APP -> revision name
  if ! az containerapp show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$1" \
    --query "properties.latestRevisionName" -o tsv 2>"$az_error"; then
    echo "az could not read $1: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
    return 1
  fi
}

# One setting of an app's revision (its container's environment), as deployed.
deployed_setting() { # APP REVISION NAME
  if ! az containerapp revision show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" --name "$1" \
    --revision "$2" --query "properties.template.containers[0].env[?name=='$3'].value | [0]" -o tsv 2>"$az_error"; then
    echo "az could not read revision $2 of $1: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
    return 1
  fi
}

# Each app's replica count now, "app=count" separated by spaces; "app=?" where az failed.
replica_counts() {
  local app count snapshot=""
  for app in $APPS; do
    count="$(az containerapp replica list --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
      --name "$app" --query "length(@)" -o tsv 2>"$az_error")" && [[ "$count" =~ ^[0-9]+$ ]] || count="?"
    snapshot="$snapshot $app=$count"
  done
  printf '%s\n' "${snapshot# }"
}

# Refuses (exit 1) when what runs in Azure is not the model the azd environment names: a burst
# labelled with the inputs would then measure another model. Sets tiered_compilation to how the apps
# run (DOTNET_TieredCompilation in each latest revision; unset or 0 is off, as the images are built):
# on, off or mixed.
check_deployed_model() { # MODEL
  local model="$1" app revision deployed_model wrong="" live scopes ready tiered on=0 off=0
  # What azd's postdeploy hook waited for: refused in one line (the app and why) until then.
  if ! ready="$(AZURE_SUBSCRIPTION_ID="$subscription" AZURE_RESOURCE_GROUP="$AZURE_RESOURCE_GROUP" \
    sh "$ROOT/scripts/wait-ready.sh" --timeout 0)"; then
    echo "refusing the burst: $ready" >&2; exit 1
  fi
  for app in $APPS; do
    revision="$(latest_revision "$app")" || exit 1
    deployed_model="$(deployed_setting "$app" "$revision" Messaging__Model)" || exit 1
    if [[ "$deployed_model" != "$model" ]]; then
      wrong="$wrong $app=${deployed_model:-none}"
    fi
    tiered="$(deployed_setting "$app" "$revision" DOTNET_TieredCompilation)" || exit 1
    if [[ "$tiered" == 1 ]]; then on=$((on + 1)); else off=$((off + 1)); fi
  done
  # shellcheck disable=SC2034 # read by the script that sources this file
  tiered_compilation="$(if ((on == 0)); then echo off; elif ((off == 0)); then echo on; else echo mixed; fi)"
  # The chosen model's live component: scoped to the distributor (the other model's were removed).
  live="order-pubsub"; [[ "$model" == "bindings" ]] && live="q-order-ingress-input"
  if ! scopes="$(az containerapp env dapr-component show --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
    --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" --dapr-component-name "$live" \
    --query "join(' ', properties.scopes || \`[]\`)" -o tsv 2>"$az_error")"; then
    wrong="$wrong component $live: $(grep -m1 . "$az_error" || echo 'not found')"
  elif [[ " $scopes " != *" distributor "* ]]; then
    wrong="$wrong component $live scoped to: ${scopes:-nothing}"
  fi
  if [[ -n "$wrong" ]]; then
    echo "refusing the burst: the azd environment says $model, but Azure runs:$wrong" >&2
    echo "  run azd provision (or azd up) to deploy what the azd environment says, or set it back (azd env set)." >&2
    exit 1
  fi
}

# cold or warm: cold when an app's processes all started after the last burst this machine sent to the
# environment ended (a new revision, a scale from zero, a restart), or when none is recorded; the reasons
# go to stderr.
burst_start() { # BURST-RECORD
  local last app created
  last="$(cat "$1" 2>/dev/null || true)"
  if [[ -z "$last" ]]; then
    echo "cold: no earlier burst to this environment is recorded in $1" >&2; echo cold; return
  fi
  for app in $APPS; do
    if ! created="$(az containerapp replica list --subscription "$subscription" --resource-group "$AZURE_RESOURCE_GROUP" \
      --name "$app" --query "min([].properties.createdTime)" -o tsv 2>"$az_error")"; then
      echo "az could not read the replicas of $app: $(grep -m1 . "$az_error" || echo 'no error text')" >&2
      return 1
    fi
    # UTC instants compare as text once cut to seconds (az writes +00:00, the record Z).
    if [[ -z "$created" || "${created:0:19}" > "${last:0:19}" ]]; then
      echo "cold: $app's oldest replica started ${created:-(none running)}, after the last burst ended $last" >&2
      echo cold; return
    fi
  done
  echo "warm: every app's oldest replica started before the last burst ended $last" >&2
  echo warm
}
