#!/bin/sh
# azd postprovision hook: removes the Dapr components of the model not chosen.
# Usage: scripts/postprovision.sh      (run by azd after each provision, or by hand; --help prints this)
# main.bicep always declares both models' components and gives the unused ones only the
# placeholder scope (DAPR_PLACEHOLDER_SCOPE, "skip"); an incremental deployment cannot delete
# them, so this does. azd passes the deployment outputs as environment variables, and
# AZURE_SUBSCRIPTION_ID: every az call names that subscription, not az's default one. Run by hand,
# it reads them from `azd env get-values`.
#
# Safe to remove: by the time this runs, the deployment has already started a new revision of
# every app (main.bicep puts the component settings in the apps' environment, DAPR_COMPONENTS_STAMP),
# and those new sidecars loaded only the chosen model's components; no running sidecar uses these.
#
# It never stops `azd up` between provision and deploy: the components it removes are inert (no app
# loads a component scoped only to the placeholder), so leaving them costs nothing. When az is missing,
# not signed in (`azd auth login` does not sign in az), or an az call fails, it prints one line saying
# what it skipped and the command that finishes it, and exits 0.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -u
placeholder="${DAPR_PLACEHOLDER_SCOPE:-skip}"
finish="az login && sh scripts/postprovision.sh"

skipped() { # WHAT WHY
  echo "postprovision: skipped $1 (inert: scoped only to '$placeholder'): $2. To finish: $finish"
  exit 0
}

if [ -z "${AZURE_SUBSCRIPTION_ID:-}" ] && command -v azd >/dev/null 2>&1; then
  values="$(azd env get-values 2>/dev/null)" && eval "$values"
fi
for name in AZURE_SUBSCRIPTION_ID AZURE_RESOURCE_GROUP AZURE_CONTAINER_APPS_ENVIRONMENT_NAME; do
  eval "value=\${$name:-}"
  [ -n "$value" ] || skipped "removing the unused model's Dapr components" "$name is not set (run it as the azd hook, or after azd provision)"
done
placeholder="${DAPR_PLACEHOLDER_SCOPE:-skip}"

command -v az >/dev/null 2>&1 || skipped "removing the unused model's Dapr components" "az is not installed"
if ! az account show --subscription "$AZURE_SUBSCRIPTION_ID" --query id -o tsv >/dev/null 2>&1; then
  skipped "removing the unused model's Dapr components" "az is not signed in to subscription $AZURE_SUBSCRIPTION_ID (azd auth login does not sign in az)"
fi

error="$(mktemp)"
trap 'rm -f "$error"' EXIT
if ! names=$(az containerapp env dapr-component list --subscription "$AZURE_SUBSCRIPTION_ID" \
  --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" \
  --query "[?length(properties.scopes || \`[]\`) == \`1\` && properties.scopes[0] == '$placeholder'].name" -o tsv 2>"$error"); then
  skipped "removing the unused model's Dapr components" "az could not list them: $(grep -m1 . "$error" || echo 'no error text')"
fi

failed=""
for name in $names; do
  echo "removing Dapr component $name (scoped only to '$placeholder')"
  if ! az containerapp env dapr-component remove --subscription "$AZURE_SUBSCRIPTION_ID" \
    --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" \
    --dapr-component-name "$name" --only-show-errors 2>"$error"; then
    failed="$failed $name ($(grep -m1 . "$error" || echo 'no error text'))"
  fi
done
[ -z "$failed" ] || skipped "removing the Dapr components$failed" "az could not remove them"
echo "Dapr components in use: model ${MESSAGING_MODEL:-pubsub-bulk}"
