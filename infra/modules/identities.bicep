// One user-assigned identity per app, holding only that app's rights, plus one shared
// "messaging" identity for the order-pubsub component.
//
// Why the shared one: in a Container Apps environment a Dapr component is a single resource with
// a single azureClientId, and order-pubsub must be one component named order-pubsub for all
// three apps (component names are unique per environment). So the pub/sub component cannot use
// per-app identities; it uses this identity, assigned to all three apps, with send and receive
// rights on the three queues. Each binding component is scoped to exactly one app and uses
// that app's own identity, as do the KEDA scaler, ACR pulls and the receivers' blob writes
// (AZURE_CLIENT_ID). The cost: any of the three apps could use the messaging identity's queue
// rights, which is what the pub/sub model gives the apps anyway.
param location string
param tags object
param resourceToken string

resource distributor 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: 'id-distributor-${resourceToken}'
  location: location
  tags: tags
}

resource receiverExpress 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: 'id-receiver-express-${resourceToken}'
  location: location
  tags: tags
}

resource receiverStandard 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: 'id-receiver-standard-${resourceToken}'
  location: location
  tags: tags
}

resource messaging 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: 'id-messaging-${resourceToken}'
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
output messagingId string = messaging.id
output messagingClientId string = messaging.properties.clientId
output messagingPrincipalId string = messaging.properties.principalId
