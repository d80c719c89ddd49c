// Dapr components of the Container Apps environment. Both models are always declared; the model
// parameter decides which ones carry the app ids in their scopes. The others get the placeholder
// scope, so no app loads them, and the azd postprovision hook (scripts/postprovision.sh) removes
// them: an incremental deployment never deletes a component that is merely left out.
// A sidecar loads its components when it starts: main.bicep puts a stamp of these settings in every
// app's environment, so any change here starts a new revision (new sidecars) of each app.
param environmentName string

@allowed([
  'bindings'
  'pubsub-single'
  'pubsub-bulk'
])
param messagingModel string

@description('Service Bus namespace as a fully-qualified name, as Dapr wants it with Entra ID auth')
param serviceBusNamespaceFqdn string

@description('order-pubsub maxActiveMessages for the chosen pub/sub model (main.bicep picks bulk or single values)')
param maxActiveMessages int = 250
@description('order-pubsub maxConcurrentHandlers for the chosen pub/sub model')
param maxConcurrentHandlers int = 1
@description('Input bindings maxActiveMessages (main.bicep: twice the consumers per queue)')
param bindingMaxActiveMessages int
@description('Input bindings maxConcurrentHandlers: the consumers per queue (main.bicep)')
param bindingMaxConcurrentHandlers int

@description('Dapr Service Bus handlerTimeoutInSec: must outlast one delivery with all its inbound retries (main.bicep)')
param handlerTimeoutInSec int
@description('Dapr Service Bus lockRenewalInSec: must stay well under the queues\' lock duration (main.bicep)')
param lockRenewalInSec int
@description('Dapr Service Bus maxConnectionRecoveryInSec: longest wait between reconnects (main.bicep)')
param connectionRecoveryMaxSeconds int

@description('Inbound resiliency (sidecar to app): timeout of one delivery attempt, seconds')
param inboundAttemptTimeoutSeconds int
@description('Inbound resiliency: retries of a failed delivery before the message goes back to Service Bus')
param inboundMaxRetries int
param inboundInitialDelayMs int
param inboundMaxIntervalMs int

var placeholderScope = 'skip'

var pubSubScopes = messagingModel != 'bindings' ? [
  'distributor'
  'receiver-express'
  'receiver-standard'
] : [
  placeholderScope
]

var bindingScopes = messagingModel == 'bindings' ? {
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

// Every app keeps what it refuses for good on the dead-letter queue (bindings model).
var deadLetterScopes = messagingModel == 'bindings' ? [
  'distributor'
  'receiver-express'
  'receiver-standard'
] : [
  placeholderScope
]

// Every Service Bus component: how long it may wait between reconnects (main.bicep says why).
var connectionRecovery = [
  { name: 'maxConnectionRecoveryInSec', value: string(connectionRecoveryMaxSeconds) }
]

var inputBindingTuning = [
  { name: 'maxActiveMessages', value: string(bindingMaxActiveMessages) }
  { name: 'maxConcurrentHandlers', value: string(bindingMaxConcurrentHandlers) }
  { name: 'handlerTimeoutInSec', value: string(handlerTimeoutInSec) }
  { name: 'lockRenewalInSec', value: string(lockRenewalInSec) }
]

// Inbound = the sidecar delivering to the app (subscriptions and input bindings). A failed delivery
// is retried inside the sidecar, which keeps renewing the message's lock; without it the message goes
// back to Service Bus at once (abandon), comes again at once, and every try counts towards the
// queue's maxDeliveryCount: an app restarting for 15 s could dead-letter valid orders.
// Bounded, so that one delivery with all its retries ends within handlerTimeoutInSec.
// No circuit breaker: an open breaker fails deliveries at once, which Service Bus counts as
// deliveries too (dead-lettering instead of waiting). While storage is down the apps answer RETRY
// per entry at once (deadline, breaker in the app), these retries space the tries, and Service Bus
// redelivers after the lock: that is the backpressure (no Dapr app health check, docs/azure.md).
var inboundPolicy = {
  timeoutPolicy: {
    responseTimeoutInSeconds: inboundAttemptTimeoutSeconds
  }
  httpRetryPolicy: {
    maxRetries: inboundMaxRetries
    retryBackOff: {
      initialDelayInMilliseconds: inboundInitialDelayMs
      maxIntervalInMilliseconds: inboundMaxIntervalMs
    }
  }
}

resource managedEnvironment 'Microsoft.App/managedEnvironments@2026-07-01' existing = {
  name: environmentName
}

resource orderPubSub 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'order-pubsub'
  properties: {
    componentType: 'pubsub.azure.servicebus.queues'
    version: 'v1'
    metadata: concat([
      // No azureClientId, here nor on the bindings: each app's sidecar signs in with that app's
      // system-assigned identity, its one identity for Service Bus, which holds only the queue rights
      // that app needs (main.bicep, serviceBusRoleAssignments).
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'maxActiveMessages', value: string(maxActiveMessages) }
      { name: 'maxConcurrentHandlers', value: string(maxConcurrentHandlers) }
      { name: 'handlerTimeoutInSec', value: string(handlerTimeoutInSec) }
      { name: 'lockRenewalInSec', value: string(lockRenewalInSec) }
      { name: 'disableEntityManagement', value: 'true' }
      // No maxBulkPubBytes here: the component ignores it at this level and reads it from each bulk
      // publish request (metadata.maxBulkPubBytes), which the apps send with Messaging__MaxBulkPublishBytes.
    ], connectionRecovery)
    scopes: pubSubScopes
  }
}

resource orderPubSubResiliency 'Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies@2026-07-01' = {
  parent: orderPubSub
  name: 'inbound-delivery'
  properties: {
    inboundPolicy: inboundPolicy
  }
}

resource ingressInput 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'q-order-ingress-input'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-ingress' }
      { name: 'direction', value: 'input' }
      { name: 'disableEntityManagement', value: 'true' }
    ], inputBindingTuning, connectionRecovery)
    scopes: bindingScopes.distributor
  }
}

resource expressOutput 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'q-order-express-output'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-express' }
      { name: 'direction', value: 'output' }
      { name: 'disableEntityManagement', value: 'true' }
    ], connectionRecovery)
    scopes: bindingScopes.distributor
  }
}

resource standardOutput 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'q-order-standard-output'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-standard' }
      { name: 'direction', value: 'output' }
      { name: 'disableEntityManagement', value: 'true' }
    ], connectionRecovery)
    scopes: bindingScopes.distributor
  }
}

// Every app keeps what it refuses for good on the dead-letter queue through this binding (bindings model; the
// pub/sub models publish to the queue of the same name through order-pubsub).
resource deadLetterOutput 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'q-order-deadletter-output'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-deadletter' }
      { name: 'direction', value: 'output' }
      { name: 'disableEntityManagement', value: 'true' }
    ], connectionRecovery)
    scopes: deadLetterScopes
  }
}

resource expressInput 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'q-order-express-input'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-express' }
      { name: 'direction', value: 'input' }
      { name: 'disableEntityManagement', value: 'true' }
    ], inputBindingTuning, connectionRecovery)
    scopes: bindingScopes.receiverExpress
  }
}

resource standardInput 'Microsoft.App/managedEnvironments/daprComponents@2026-07-01' = {
  parent: managedEnvironment
  name: 'q-order-standard-input'
  properties: {
    componentType: 'bindings.azure.servicebusqueues'
    version: 'v1'
    metadata: concat([
      { name: 'namespaceName', value: serviceBusNamespaceFqdn }
      { name: 'queueName', value: 'q-order-standard' }
      { name: 'direction', value: 'input' }
      { name: 'disableEntityManagement', value: 'true' }
    ], inputBindingTuning, connectionRecovery)
    scopes: bindingScopes.receiverStandard
  }
}

// The same inbound policy on every input binding (bindings model).
resource ingressInputResiliency 'Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies@2026-07-01' = {
  parent: ingressInput
  name: 'inbound-delivery'
  properties: {
    inboundPolicy: inboundPolicy
  }
}

resource expressInputResiliency 'Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies@2026-07-01' = {
  parent: expressInput
  name: 'inbound-delivery'
  properties: {
    inboundPolicy: inboundPolicy
  }
}

resource standardInputResiliency 'Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies@2026-07-01' = {
  parent: standardInput
  name: 'inbound-delivery'
  properties: {
    inboundPolicy: inboundPolicy
  }
}

output placeholderScope string = placeholderScope
