import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param name string
param queueNames string[]

@description('Standard (shared capacity, throttled at about 1,000 credits a second per namespace) or Premium (dedicated messaging units)')
@allowed([
  'Standard'
  'Premium'
])
param sku string = 'Standard'

@description('Premium only: messaging units (dedicated capacity). Ignored on Standard.')
@allowed([
  1
  2
  4
  8
  16
])
param messagingUnits int = 1

@description('Service Bus lock duration of every queue (ISO 8601). See main.bicep for why.')
param lockDuration string = 'PT1M'

@description('Deliveries before Service Bus moves a message to the queue\'s dead-letter queue')
param maxDeliveryCount int = 10

resource namespace 'Microsoft.ServiceBus/namespaces@2026-01-01' = {
  name: name
  location: location
  tags: tags
  // Premium takes a capacity (messaging units); Standard has none.
  sku: sku == 'Premium' ? {
    name: 'Premium'
    tier: 'Premium'
    capacity: messagingUnits
  } : {
    name: 'Standard'
    tier: 'Standard'
  }
  properties: {
    // Identities only: the Dapr components, the KEDA scaler and the load tool all use Entra ID.
    disableLocalAuth: true
  }
}

// Created here, so the Dapr components run with disableEntityManagement: "true".
resource queues 'Microsoft.ServiceBus/namespaces/queues@2026-01-01' = [for queueName in queueNames: {
  parent: namespace
  name: queueName
  properties: {
    lockDuration: lockDuration
    maxDeliveryCount: maxDeliveryCount
    deadLetteringOnMessageExpiration: true
  }
}]

output name string = namespace.name
output fqdn string = '${namespace.name}.servicebus.windows.net'
