param location string
param tags object
param name string
param queueNames array

resource namespace 'Microsoft.ServiceBus/namespaces@2021-11-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: 'Standard'
    tier: 'Standard'
  }
  properties: {
    // Identities only: the Dapr components, the KEDA scaler and the load tool all use Entra ID.
    disableLocalAuth: true
  }
}

// Created here, so the Dapr components run with disableEntityManagement: "true".
resource queues 'Microsoft.ServiceBus/namespaces/queues@2021-11-01' = [for queueName in queueNames: {
  parent: namespace
  name: queueName
  properties: {
    lockDuration: 'PT1M'
    maxDeliveryCount: 10
    deadLetteringOnMessageExpiration: true
  }
}]

output name string = namespace.name
output fqdn string = '${namespace.name}.servicebus.windows.net'
