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
    // Logs go through Azure Monitor (the diagnostic setting below), which needs no workspace key: the
    // 'log-analytics' destination would need the workspace's shared key, and its local auth on.
    appLogsConfiguration: {
      destination: 'azure-monitor'
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

// Console logs (sidecar and app) into ContainerAppConsoleLogs and the platform's into ContainerAppSystemLogs,
// the resource-specific tables scripts/kql and the workbook read.
// 2021-05-01-preview: the newest version, and the first with category groups; the only GA one (2016-09-01)
// predates resource-specific tables.
#disable-next-line use-recent-api-versions
resource appLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'logs-to-log-analytics'
  scope: managedEnvironment
  properties: {
    workspaceId: logAnalytics.id
    logAnalyticsDestinationType: 'Dedicated'
    logs: [
      { category: 'ContainerAppConsoleLogs', enabled: true }
      { category: 'ContainerAppSystemLogs', enabled: true }
    ]
  }
}

output name string = managedEnvironment.name
output id string = managedEnvironment.id
