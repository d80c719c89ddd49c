// One role assignment on one blob container (module, so that main.bicep can loop over assignments).
param storageAccountName string
param containerName string
param principalId string
@description('User or ServicePrincipal; empty: ARM reads it from the principal')
param principalType string
param roleDefinitionId string

resource account 'Microsoft.Storage/storageAccounts@2026-06-01' existing = {
  name: storageAccountName
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2026-06-01' existing = {
  parent: account
  name: 'default'
}

resource container 'Microsoft.Storage/storageAccounts/blobServices/containers@2026-06-01' existing = {
  parent: blobService
  name: containerName
}

resource assignment 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(container.id, principalId, roleDefinitionId)
  scope: container
  properties: {
    principalId: principalId
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roleDefinitionId)
    // Empty: ARM reads the type from the principal (main.bicep, principalType).
    ...(empty(principalType) ? {} : { principalType: principalType })
  }
}
