targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('azd environment name; names the resource group and seeds the resource names')
param environmentName string

@minLength(1)
@description('Azure region for all resources')
param location string

@description('Which Dapr components the apps get: input/output bindings per queue edge, or one pub/sub component')
@allowed([
  'bindings'
  'pubsub'
])
param daprComponentsModel string

@description('How the apps consume pub/sub: bulk or single subscriptions (env Messaging__PubSubMode)')
@allowed([
  'bulk'
  'single'
])
param daprPubSubModel string

@description('Bulk subscribe maxMessagesCount (env Messaging__MaxMessagesCount)')
param maxMessagesCount int = 250

@description('order-pubsub maxActiveMessages: keep it near the bulk size, or locks expire while messages wait (seed article)')
param maxActiveMessages int = 250

@description('order-pubsub maxConcurrentHandlers: 1 lets one handler gather full bulks (seed article)')
param maxConcurrentHandlers int = 1

@description('Input bindings maxActiveMessages (the component default is 1, one message at a time)')
param bindingMaxActiveMessages int = 1000

@description('Input bindings maxConcurrentHandlers (the component default is 1)')
param bindingMaxConcurrentHandlers int = 8

@description('Object id of the user or principal running azd; gets send rights on the ingress queue and blob access for the load tool. Empty: none.')
param principalId string = ''

@allowed([
  'User'
  'ServicePrincipal'
])
param principalType string = 'User'

@description('Set by azd once the app has been deployed; keeps the deployed image on later provisions')
param distributorExists bool = false
param receiverExpressExists bool = false
param receiverStandardExists bool = false

var tags = {
  'azd-env-name': environmentName
}
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))

// Standard tier caps a message at 256 KB; Dapr's bulk publish puts all entries of one call in
// one batch, so it must stay under the tier's limit. The apps split their batches by the same bytes.
var maxBulkPubBytes = 131072

var queueNames = {
  ingress: 'q-order-ingress'
  express: 'q-order-express'
  standard: 'q-order-standard'
}

var roles = {
  serviceBusDataSender: '69a216fc-b8fb-44d8-bc22-1f3c2cd27a39'
  serviceBusDataReceiver: '4f6d3b9b-027b-4f4c-9142-0e5a2a2247e0'
  // The KEDA azure-servicebus scaler reads queue runtime properties, which needs Manage rights.
  serviceBusDataOwner: '090c5cfd-751d-490a-894a-3ce6f1109419'
  storageBlobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
}

resource rg 'Microsoft.Resources/resourceGroups@2021-04-01' = {
  name: 'rg-${environmentName}'
  location: location
  tags: tags
}

module monitoring 'modules/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    location: location
    tags: tags
    logAnalyticsName: 'log-${resourceToken}'
    appInsightsName: 'appi-${resourceToken}'
  }
}

module identities 'modules/identities.bicep' = {
  name: 'identities'
  scope: rg
  params: {
    location: location
    tags: tags
    resourceToken: resourceToken
  }
}

module registry 'modules/registry.bicep' = {
  name: 'registry'
  scope: rg
  params: {
    location: location
    tags: tags
    name: 'cr${resourceToken}'
    pullPrincipalIds: [
      identities.outputs.distributorPrincipalId
      identities.outputs.receiverExpressPrincipalId
      identities.outputs.receiverStandardPrincipalId
    ]
  }
}

module serviceBus 'modules/servicebus.bicep' = {
  name: 'servicebus'
  scope: rg
  params: {
    location: location
    tags: tags
    name: 'sb-${resourceToken}'
    queueNames: [
      queueNames.ingress
      queueNames.express
      queueNames.standard
    ]
  }
}

module storage 'modules/storage.bicep' = {
  name: 'storage'
  scope: rg
  params: {
    location: location
    tags: tags
    name: 'st${resourceToken}'
    containerNames: [
      'express-outbox'
      'standard-outbox'
      'test-data'
    ]
  }
}

// Each identity gets only the queue rights its components use (see modules/identities.bicep).
// Loops must be computable when the deployment starts, so they name principals by key,
// and principalIds resolves the keys inside the loop body.
var principalIds = {
  distributor: identities.outputs.distributorPrincipalId
  receiverExpress: identities.outputs.receiverExpressPrincipalId
  receiverStandard: identities.outputs.receiverStandardPrincipalId
  messaging: identities.outputs.messagingPrincipalId
  user: principalId
}

var queueRoleAssignments = concat([
  { who: 'distributor', queue: queueNames.ingress, role: roles.serviceBusDataReceiver }
  { who: 'distributor', queue: queueNames.ingress, role: roles.serviceBusDataOwner }
  { who: 'distributor', queue: queueNames.express, role: roles.serviceBusDataSender }
  { who: 'distributor', queue: queueNames.standard, role: roles.serviceBusDataSender }
  { who: 'receiverExpress', queue: queueNames.express, role: roles.serviceBusDataReceiver }
  { who: 'receiverExpress', queue: queueNames.express, role: roles.serviceBusDataOwner }
  { who: 'receiverStandard', queue: queueNames.standard, role: roles.serviceBusDataReceiver }
  { who: 'receiverStandard', queue: queueNames.standard, role: roles.serviceBusDataOwner }
  { who: 'messaging', queue: queueNames.ingress, role: roles.serviceBusDataSender }
  { who: 'messaging', queue: queueNames.ingress, role: roles.serviceBusDataReceiver }
  { who: 'messaging', queue: queueNames.express, role: roles.serviceBusDataSender }
  { who: 'messaging', queue: queueNames.express, role: roles.serviceBusDataReceiver }
  { who: 'messaging', queue: queueNames.standard, role: roles.serviceBusDataSender }
  { who: 'messaging', queue: queueNames.standard, role: roles.serviceBusDataReceiver }
], empty(principalId) ? [] : [
  { who: 'user', queue: queueNames.ingress, role: roles.serviceBusDataSender }
])

module queueRoles 'modules/servicebus-queue-role.bicep' = [for (assignment, i) in queueRoleAssignments: {
  name: 'queue-role-${i}'
  scope: rg
  params: {
    namespaceName: serviceBus.outputs.name
    queueName: assignment.queue
    principalId: principalIds[assignment.who]
    principalType: assignment.who == 'user' ? principalType : 'ServicePrincipal'
    roleDefinitionId: assignment.role
  }
}]

var containerRoleAssignments = concat([
  { who: 'receiverExpress', container: 'express-outbox' }
  { who: 'receiverStandard', container: 'standard-outbox' }
], empty(principalId) ? [] : [
  { who: 'user', container: 'express-outbox' }
  { who: 'user', container: 'standard-outbox' }
  { who: 'user', container: 'test-data' }
])

module containerRoles 'modules/storage-container-role.bicep' = [for (assignment, i) in containerRoleAssignments: {
  name: 'container-role-${i}'
  scope: rg
  params: {
    storageAccountName: storage.outputs.name
    containerName: assignment.container
    principalId: principalIds[assignment.who]
    principalType: assignment.who == 'user' ? principalType : 'ServicePrincipal'
    roleDefinitionId: roles.storageBlobDataContributor
  }
}]

module containerAppsEnvironment 'modules/container-apps-environment.bicep' = {
  name: 'container-apps-environment'
  scope: rg
  params: {
    location: location
    tags: tags
    name: 'cae-${resourceToken}'
    logAnalyticsName: monitoring.outputs.logAnalyticsName
    appInsightsName: monitoring.outputs.appInsightsName
  }
}

module daprComponents 'modules/dapr-components.bicep' = {
  name: 'dapr-components'
  scope: rg
  params: {
    environmentName: containerAppsEnvironment.outputs.name
    daprComponentsModel: daprComponentsModel
    serviceBusNamespaceFqdn: serviceBus.outputs.fqdn
    messagingClientId: identities.outputs.messagingClientId
    distributorClientId: identities.outputs.distributorClientId
    receiverExpressClientId: identities.outputs.receiverExpressClientId
    receiverStandardClientId: identities.outputs.receiverStandardClientId
    maxActiveMessages: maxActiveMessages
    maxConcurrentHandlers: maxConcurrentHandlers
    maxBulkPubBytes: maxBulkPubBytes
    bindingMaxActiveMessages: bindingMaxActiveMessages
    bindingMaxConcurrentHandlers: bindingMaxConcurrentHandlers
  }
}

var messagingEnv = [
  { name: 'Messaging__PubSubMode', value: daprPubSubModel }
  { name: 'Messaging__MaxMessagesCount', value: string(maxMessagesCount) }
  { name: 'Messaging__MaxBulkPublishBytes', value: string(maxBulkPubBytes) }
]

module distributor 'modules/container-app.bicep' = {
  name: 'app-distributor'
  scope: rg
  // Role assignments first: the first revision must already be allowed to pull and to read its queue.
  dependsOn: [
    queueRoles
    daprComponents
  ]
  params: {
    location: location
    tags: tags
    name: 'distributor'
    serviceName: 'distributor'
    daprAppId: 'distributor'
    exists: distributorExists
    environmentId: containerAppsEnvironment.outputs.id
    registryServer: registry.outputs.loginServer
    identityId: identities.outputs.distributorId
    identityClientId: identities.outputs.distributorClientId
    messagingIdentityId: identities.outputs.messagingId
    appInsightsName: monitoring.outputs.appInsightsName
    serviceBusNamespaceName: serviceBus.outputs.name
    scaleQueueName: queueNames.ingress
    env: messagingEnv
  }
}

module receiverExpress 'modules/container-app.bicep' = {
  name: 'app-receiver-express'
  scope: rg
  dependsOn: [
    queueRoles
    containerRoles
    daprComponents
  ]
  params: {
    location: location
    tags: tags
    name: 'receiver-express'
    serviceName: 'receiver-express'
    daprAppId: 'receiver-express'
    exists: receiverExpressExists
    environmentId: containerAppsEnvironment.outputs.id
    registryServer: registry.outputs.loginServer
    identityId: identities.outputs.receiverExpressId
    identityClientId: identities.outputs.receiverExpressClientId
    messagingIdentityId: identities.outputs.messagingId
    appInsightsName: monitoring.outputs.appInsightsName
    serviceBusNamespaceName: serviceBus.outputs.name
    scaleQueueName: queueNames.express
    env: concat(messagingEnv, [
      { name: 'INSTANCE', value: 'express' }
      { name: 'Storage__AccountUrl', value: storage.outputs.blobEndpoint }
    ])
  }
}

module receiverStandard 'modules/container-app.bicep' = {
  name: 'app-receiver-standard'
  scope: rg
  dependsOn: [
    queueRoles
    containerRoles
    daprComponents
  ]
  params: {
    location: location
    tags: tags
    name: 'receiver-standard'
    serviceName: 'receiver-standard'
    daprAppId: 'receiver-standard'
    exists: receiverStandardExists
    environmentId: containerAppsEnvironment.outputs.id
    registryServer: registry.outputs.loginServer
    identityId: identities.outputs.receiverStandardId
    identityClientId: identities.outputs.receiverStandardClientId
    messagingIdentityId: identities.outputs.messagingId
    appInsightsName: monitoring.outputs.appInsightsName
    serviceBusNamespaceName: serviceBus.outputs.name
    scaleQueueName: queueNames.standard
    env: concat(messagingEnv, [
      { name: 'INSTANCE', value: 'standard' }
      { name: 'Storage__AccountUrl', value: storage.outputs.blobEndpoint }
    ])
  }
}

output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output AZURE_CONTAINER_REGISTRY_ENDPOINT string = registry.outputs.loginServer
output AZURE_CONTAINER_REGISTRY_NAME string = registry.outputs.name
output AZURE_CONTAINER_APPS_ENVIRONMENT_NAME string = containerAppsEnvironment.outputs.name
output AZURE_CONTAINER_APPS_ENVIRONMENT_ID string = containerAppsEnvironment.outputs.id
output SERVICEBUS_NAMESPACE string = serviceBus.outputs.name
output SERVICEBUS_NAMESPACE_FQDN string = serviceBus.outputs.fqdn
output STORAGE_ACCOUNT_NAME string = storage.outputs.name
output STORAGE_BLOB_ENDPOINT string = storage.outputs.blobEndpoint
output APPLICATIONINSIGHTS_NAME string = monitoring.outputs.appInsightsName
output LOG_ANALYTICS_WORKSPACE_NAME string = monitoring.outputs.logAnalyticsName
output LOG_ANALYTICS_WORKSPACE_ID string = monitoring.outputs.logAnalyticsCustomerId
output DAPR_PLACEHOLDER_SCOPE string = daprComponents.outputs.placeholderScope
