// Dapr components of the Container Apps environment. Both models are always declared; the model
// parameter decides which ones carry the app ids in their scopes. The others get the placeholder
// scope, so no app loads them, and the azd postprovision hook (scripts/postprovision.sh) removes
// them: an incremental deployment never deletes a component that is merely left out.
param environmentName string

@allowed([
  'bindings'
  'pubsub'
])
param daprComponentsModel string

@description('Service Bus namespace as a fully-qualified name, as Dapr wants it with Entra ID auth')
param serviceBusNamespaceFqdn string
@description('Client id of the shared messaging identity, for order-pubsub')
param messagingClientId string
param distributorClientId string
param receiverExpressClientId string
param receiverStandardClientId string

param maxActiveMessages int = 250
param maxConcurrentHandlers int = 1
param maxBulkPubBytes int = 131072
param bindingMaxActiveMessages int = 1000
param bindingMaxConcurrentHandlers int = 8

var placeholderScope = 'skip'

var pubSubScopes = daprComponentsModel == 'pubsub' ? [
  'distributor'
  'receiver-express'
  'receiver-standard'
] : [
  placeholderScope
]

var bindingScopes = daprComponentsModel == 'bindings' ? {
  distributor: [
    'distributor'
  ]
  receiverExpress: [
    'receiver-express'
  ]
  receiverStandard: [
    'receiver-standard'
  ]
} : {
  distributor: [
    placeholderScope
  ]
  receiverExpress: [
    placeholderScope
  ]
  receiverStandard: [
    placeholderScope
  ]
}

var inputBindingTuning = [
  { name: 'maxActiveMessages', value: string(bindingMaxActiveMessages) }
  { name: 'maxConcurrentHandlers', value: string(bindingMaxConcurrentHandlers) }
]

resource managedEnvironment 'Microsoft.App/managedEnvironments@2025-01-01' existing = {
  name: environmentName
}

resource orderPubSub 'Microsoft.App/managedEnvironments/daprComponents@2025-01-01' = {
  parent: managedEnvironment
  name: 'order-pubsub'
  properties: {
    componentType: 'pubsub.azure.servicebus.queues'
    version: 'v1'
    metadata: [
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'azureClientId', value: messagingClientId }
      { name: 'maxActiveMessages', value: string(maxActiveMessages) }
      { name: 'maxConcurrentHandlers', value: string(maxConcurrentHandlers) }
      { name: 'maxBulkPubBytes', value: string(maxBulkPubBytes) }
      { name: 'disableEntityManagement', value: 'true' }
    ]
    scopes: pubSubScopes
  }
}

resource ingressInput 'Microsoft.App/managedEnvironments/daprComponents@2025-01-01' = {
  parent: managedEnvironment
  name: 'q-order-ingress-input'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-ingress' }
      { name: 'azureClientId', value: distributorClientId }
      { name: 'direction', value: 'input' }
      { name: 'disableEntityManagement', value: 'true' }
    ], inputBindingTuning)
    scopes: bindingScopes.distributor
  }
}

resource expressOutput 'Microsoft.App/managedEnvironments/daprComponents@2025-01-01' = {
  parent: managedEnvironment
  name: 'q-order-express-output'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: [
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-express' }
      { name: 'azureClientId', value: distributorClientId }
      { name: 'direction', value: 'output' }
      { name: 'disableEntityManagement', value: 'true' }
    ]
    scopes: bindingScopes.distributor
  }
}

resource standardOutput 'Microsoft.App/managedEnvironments/daprComponents@2025-01-01' = {
  parent: managedEnvironment
  name: 'q-order-standard-output'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: [
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-standard' }
      { name: 'azureClientId', value: distributorClientId }
      { name: 'direction', value: 'output' }
      { name: 'disableEntityManagement', value: 'true' }
    ]
    scopes: bindingScopes.distributor
  }
}

resource expressInput 'Microsoft.App/managedEnvironments/daprComponents@2025-01-01' = {
  parent: managedEnvironment
  name: 'q-order-express-input'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-express' }
      { name: 'azureClientId', value: receiverExpressClientId }
      { name: 'direction', value: 'input' }
      { name: 'disableEntityManagement', value: 'true' }
    ], inputBindingTuning)
    scopes: bindingScopes.receiverExpress
  }
}

resource standardInput 'Microsoft.App/managedEnvironments/daprComponents@2025-01-01' = {
  parent: managedEnvironment
  name: 'q-order-standard-input'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-standard' }
      { name: 'azureClientId', value: receiverStandardClientId }
      { name: 'direction', value: 'input' }
      { name: 'disableEntityManagement', value: 'true' }
    ], inputBindingTuning)
    scopes: bindingScopes.receiverStandard
  }
}

output placeholderScope string = placeholderScope
