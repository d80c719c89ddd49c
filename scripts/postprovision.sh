#!/bin/sh
# azd postprovision hook: removes the Dapr components of the model not chosen.
# Usage: scripts/postprovision.sh      (run by azd with its deployment outputs; --help prints this)
# main.bicep always declares both models' components and gives the unused ones only the
# placeholder scope (DAPR_PLACEHOLDER_SCOPE, "skip"); an incremental deployment cannot delete
# them, so this does. azd passes the deployment outputs as environment variables, and
# AZURE_SUBSCRIPTION_ID: every az call names that subscription, not az's default one.
#
# Safe to remove: by the time this runs, the deployment has already started a new revision of
# every app (main.bicep puts the component settings in the apps' environment, DAPR_COMPONENTS_STAMP),
# and those new sidecars loaded only the chosen model's components; no running sidecar uses these.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -eu
: "${AZURE_SUBSCRIPTION_ID:?not set: run it as the azd postprovision hook}"
: "${AZURE_RESOURCE_GROUP:?}"
: "${AZURE_CONTAINER_APPS_ENVIRONMENT_NAME:?}"
placeholder="${DAPR_PLACEHOLDER_SCOPE:-skip}"

names=$(az containerapp env dapr-component list --subscription "$AZURE_SUBSCRIPTION_ID" \
  --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" \
  --query "[?length(properties.scopes || \`[]\`) == \`1\` && properties.scopes[0] == '$placeholder'].name" -o tsv)

for name in $names; do
  echo "removing Dapr component $name (scoped only to '$placeholder')"
  az containerapp env dapr-component remove --subscription "$AZURE_SUBSCRIPTION_ID" \
    --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" \
    --dapr-component-name "$name" --only-show-errors
done
echo "Dapr components in use: model ${DAPR_COMPONENTS_MODEL:-pubsub} (${DAPR_PUBSUB_MODEL:-bulk})"
