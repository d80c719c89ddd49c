// One user-assigned identity per app, holding only that app's rights outside Service Bus: ACR pulls,
// the receivers' blob writes and the telemetry (AZURE_CLIENT_ID of the app's code).
//
// One more per app for its KEDA scale rule alone: KEDA's azure-servicebus scaler documents that it
// needs the Manage right to read the queue's message count, and among the Service Bus data roles only
// Azure Service Bus Data Owner grants it; Data Receiver is not enough (docs/azure.md, "Roles"). Owner
// may also delete the queue and read and send any message, so the app's containers must not hold it:
// the container app gets this identity with lifecycle None, which makes it available to the platform
// (the scale rule) and to no container.
//
// Service Bus: each app's system-assigned identity, its one identity there. The order-pubsub component
// is one component for all three apps (component names are unique per environment), so it cannot name
// one azureClientId per app; it names none, and neither do the bindings, so each app's sidecar signs in
// with that app's system-assigned identity in both models (Dapr's Azure auth falls back to the managed
// identity without a client id), and main.bicep gives it only the queue rights its app uses. No
// identity is shared between apps, and no app holds a Service Bus right twice.
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
