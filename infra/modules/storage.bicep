import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param name string
param containerNames string[]
@description('Log Analytics workspace that keeps every read, write and delete of the blob service (StorageBlobLogs)')
param logAnalyticsName string
@description('Days a deleted blob or container can be restored (blob and container soft delete)')
@minValue(1)
@maxValue(365)
param softDeleteRetentionDays int

resource account 'Microsoft.Storage/storageAccounts@2026-06-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: {
    name: 'Standard_LRS'
  }
  properties: {
    // Entra ID only: the receivers use their identities (Storage__AccountUrl + AZURE_CLIENT_ID).
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    allowBlobPublicAccess: false
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
  }
}

// Soft delete: a mistaken `order-load clear`, or a container deleted by hand, can be undone for
// softDeleteRetentionDays (docs/azure.md, "Deleted orders and who touched them" gives its cost).
resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2026-06-01' = {
  parent: account
  name: 'default'
  properties: {
    deleteRetentionPolicy: {
      enabled: true
      days: softDeleteRetentionDays
    }
    containerDeleteRetentionPolicy: {
      enabled: true
      days: softDeleteRetentionDays
    }
  }
}

resource containers 'Microsoft.Storage/storageAccounts/blobServices/containers@2026-06-01' = [for containerName in containerNames: {
  parent: blobService
  name: containerName
  properties: {
    publicAccess: 'None'
  }
}]

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2026-03-01' existing = {
  name: logAnalyticsName
}

// Who read, wrote and deleted each blob (caller identity, operation, object): the blob service's three
// categories into StorageBlobLogs.
// 2021-05-01-preview: the newest version, and the first with category groups; the only GA one (2016-09-01)
// predates resource-specific tables.
#disable-next-line use-recent-api-versions
resource accessLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'access-to-log-analytics'
  scope: blobService
  properties: {
    workspaceId: logAnalytics.id
    logAnalyticsDestinationType: 'Dedicated'
    logs: [
      { category: 'StorageRead', enabled: true }
      { category: 'StorageWrite', enabled: true }
      { category: 'StorageDelete', enabled: true }
    ]
  }
}

output name string = account.name
output blobEndpoint string = account.properties.primaryEndpoints.blob
