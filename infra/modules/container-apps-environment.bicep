import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param name string
param logAnalyticsName string

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2026-03-01' existing = {
  name: logAnalyticsName
}

resource managedEnvironment 'Microsoft.App/managedEnvironments@2026-07-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    // Console logs (sidecar and app) land in ContainerAppConsoleLogs_CL (scripts/kql).
    appLogsConfiguration: {
      destination: 'log-analytics'
      logAnalyticsConfiguration: {
        customerId: logAnalytics.properties.customerId
        sharedKey: logAnalytics.listKeys().primarySharedKey
      }
    }
    // No daprAIConnectionString: the sidecars' exporter takes only a connection string (an
    // instrumentation key), which Application Insights refuses with local auth off (monitoring.bicep),
    // and Container Apps documents no identity for it. Nothing reads the sidecars' spans; their
    // console logs still reach Log Analytics (lock-lost.kql reads them).
    workloadProfiles: [
      {
        name: 'Consumption'
        workloadProfileType: 'Consumption'
      }
    ]
    zoneRedundant: false
  }
}

output name string = managedEnvironment.name
output id string = managedEnvironment.id
