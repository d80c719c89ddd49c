import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param name string
@description('Log Analytics workspace that keeps the registry\'s audit logs')
param logAnalyticsName string
@description('Principals that may pull images (the apps\' identities)')
param pullPrincipalIds string[]

var acrPullRoleId = '7f951dda-4ed3-4680-a7ca-43fe172d538d'

resource registry 'Microsoft.ContainerRegistry/registries@2025-11-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: 'Basic'
  }
  properties: {
    adminUserEnabled: false
    // Pinned: Learn says the ABAC repository mode will become the default for new registries, and that
    // it does not honour AcrPull and AcrPush. In this mode the apps' AcrPull below lets them pull, and
    // azd pushes as the signed-in Owner or Contributor, as before.
    roleAssignmentMode: 'LegacyRegistryPermissions'
  }
}

resource acrPull 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for principalId in pullPrincipalIds: {
  name: guid(registry.id, principalId, acrPullRoleId)
  scope: registry
  properties: {
    principalId: principalId
    principalType: 'ServicePrincipal'
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', acrPullRoleId)
  }
}]

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2026-03-01' existing = {
  name: logAnalyticsName
}

// Who signed in to the registry and who pushed, pulled or deleted which image (ContainerRegistryLoginEvents,
// ContainerRegistryRepositoryEvents): the audit category group.
// 2021-05-01-preview: the newest version, and the first with category groups; the only GA one (2016-09-01)
// predates resource-specific tables.
#disable-next-line use-recent-api-versions
resource auditLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-to-log-analytics'
  scope: registry
  properties: {
    workspaceId: logAnalytics.id
    logAnalyticsDestinationType: 'Dedicated'
    logs: [
      { categoryGroup: 'audit', enabled: true }
    ]
  }
}

output name string = registry.name
output loginServer string = registry.properties.loginServer
