// One user-assigned identity per app, holding only that app's rights: ACR pulls, the binding
// components scoped to that app (azureClientId) and the receivers' blob writes (AZURE_CLIENT_ID).
//
// One more per app for its KEDA scale rule alone: the azure-servicebus scaler reads the queue's
// runtime properties (the message count) through the Service Bus administration API, which needs
// the Manage right, i.e. Azure Service Bus Data Owner on the queue; Data Receiver is not enough
// (docs/azure.md, "Roles"). Owner may also delete the queue and read and send any message, so the
// app's containers must not hold it: the container app gets this identity with lifecycle None,
// which makes it available to the platform (the scale rule) and to no container.
//
// The order-pubsub component is one component for all three apps (component names are unique per
// environment), so it cannot name one azureClientId per app. It names none: each app's sidecar then
// signs in with that app's system-assigned identity (Dapr's Azure auth falls back to the managed
// identity without a client id), and main.bicep gives each system-assigned identity only the queue
// rights its app uses in the pub/sub model. No identity is shared between apps.
import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param resourceToken string

resource distributor 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: 'id-distributor-${resourceToken}'
  location: location
  tags: tags
}

resource distributorScaler 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: 'id-distributor-scaler-${resourceToken}'
  location: location
  tags: tags
}

resource receiverExpress 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: 'id-receiver-express-${resourceToken}'
  location: location
  tags: tags
}

resource receiverExpressScaler 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: 'id-receiver-express-scaler-${resourceToken}'
  location: location
  tags: tags
}

resource receiverStandard 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: 'id-receiver-standard-${resourceToken}'
  location: location
  tags: tags
}

resource receiverStandardScaler 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: 'id-receiver-standard-scaler-${resourceToken}'
  location: location
  tags: tags
}

output distributorId string = distributor.id
output distributorClientId string = distributor.properties.clientId
output distributorPrincipalId string = distributor.properties.principalId
output receiverExpressId string = receiverExpress.id
output receiverExpressClientId string = receiverExpress.properties.clientId
output receiverExpressPrincipalId string = receiverExpress.properties.principalId
output receiverStandardId string = receiverStandard.id
output receiverStandardClientId string = receiverStandard.properties.clientId
output receiverStandardPrincipalId string = receiverStandard.properties.principalId
output distributorScalerId string = distributorScaler.id
output distributorScalerPrincipalId string = distributorScaler.properties.principalId
output receiverExpressScalerId string = receiverExpressScaler.id
output receiverExpressScalerPrincipalId string = receiverExpressScaler.properties.principalId
output receiverStandardScalerId string = receiverStandardScaler.id
output receiverStandardScalerPrincipalId string = receiverStandardScaler.properties.principalId
