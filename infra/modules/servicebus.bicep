import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
@description('Log Analytics workspace that keeps the namespace\'s audit logs')
param logAnalyticsName string
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
    minimumTlsVersion: '1.2'
  }
}

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2026-03-01' existing = {
  name: logAnalyticsName
}

// Who managed the namespace and its queues (AZMSOperationalLogs) and, on Premium, who sent and received
// (AZMSRunTimeAuditLogs): the audit category group, into the workspace's resource-specific tables.
// 2021-05-01-preview: the newest version, and the first with category groups; the only GA one (2016-09-01)
// predates resource-specific tables.
#disable-next-line use-recent-api-versions
resource auditLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-to-log-analytics'
  scope: namespace
  properties: {
    workspaceId: logAnalytics.id
    logAnalyticsDestinationType: 'Dedicated'
    logs: [
      { categoryGroup: 'audit', enabled: true }
    ]
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
