// One role assignment on one queue (module, so that main.bicep can loop over assignments).
param namespaceName string
param queueName string
param principalId string
@description('User or ServicePrincipal; empty: ARM reads it from the principal')
param principalType string
param roleDefinitionId string

resource namespace 'Microsoft.ServiceBus/namespaces@2026-01-01' existing = {
  name: namespaceName
}

resource queue 'Microsoft.ServiceBus/namespaces/queues@2026-01-01' existing = {
  parent: namespace
  name: queueName
}

resource assignment 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(queue.id, principalId, roleDefinitionId)
  scope: queue
  properties: {
    principalId: principalId
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roleDefinitionId)
    // Empty: ARM reads the type from the principal (main.bicep, principalType).
    ...(empty(principalType) ? {} : { principalType: principalType })
  }
}
