#!/bin/sh
# azd postprovision hook: removes the Dapr components of the model not chosen.
# main.bicep always declares both models' components and gives the unused ones only the
# placeholder scope (DAPR_PLACEHOLDER_SCOPE, "skip"); an incremental deployment cannot delete
# them, so this does. azd passes the deployment outputs as environment variables.
set -eu
: "${AZURE_RESOURCE_GROUP:?}"
: "${AZURE_CONTAINER_APPS_ENVIRONMENT_NAME:?}"
placeholder="${DAPR_PLACEHOLDER_SCOPE:-skip}"

names=$(az containerapp env dapr-component list \
  --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" \
  --query "[?length(properties.scopes || \`[]\`) == \`1\` && properties.scopes[0] == '$placeholder'].name" -o tsv)

for name in $names; do
  echo "removing Dapr component $name (scoped only to '$placeholder')"
  az containerapp env dapr-component remove \
    --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_CONTAINER_APPS_ENVIRONMENT_NAME" \
    --dapr-component-name "$name" --only-show-errors
done
echo "Dapr components in use: model ${DAPR_COMPONENTS_MODEL:-pubsub}"
