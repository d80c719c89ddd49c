import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param logAnalyticsName string
param appInsightsName string
@description('Principals that send telemetry (the apps\' identities): Monitoring Metrics Publisher on Application Insights')
param publisherPrincipalIds string[]

// Monitoring Metrics Publisher: with local auth off, the role Application Insights checks for every
// item it ingests (despite its name, all telemetry, not only metrics).
var metricsPublisherRoleId = '3913510d-42f4-4e42-8a64-420c390055eb'

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2026-03-01' = {
  name: logAnalyticsName
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: 30
    // Entra ID only: no one reads or writes with the workspace's shared keys (the Container Apps
    // environment sends its logs through Azure Monitor, container-apps-environment.bicep).
    features: {
      disableLocalAuth: true
    }
  }
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: appInsightsName
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: logAnalytics.id
    // Entra ID only, as Service Bus and storage: the connection string alone (its instrumentation key)
    // no longer lets anyone write telemetry; the apps sign in with their own identity.
    DisableLocalAuth: true
  }
}

resource publishers 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for principalId in publisherPrincipalIds: {
  name: guid(appInsights.id, principalId, metricsPublisherRoleId)
  scope: appInsights
  properties: {
    principalId: principalId
    principalType: 'ServicePrincipal'
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', metricsPublisherRoleId)
  }
}]

output logAnalyticsName string = logAnalytics.name
output logAnalyticsCustomerId string = logAnalytics.properties.customerId
output appInsightsName string = appInsights.name
