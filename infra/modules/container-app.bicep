// One Dapr-enabled container app. The apps listen on 8080 (.NET container images' default).
param location string
param tags object
param name string
@description('azd service name from azure.yaml; azd finds the app by this tag')
param serviceName string
param daprAppId string
@description('true once azd has deployed the app (SERVICE_<NAME>_RESOURCE_EXISTS)')
param exists bool
param environmentId string
param registryServer string
@description('The app\'s own user-assigned identity: ACR pulls, KEDA scaler, bindings, blob access')
param identityId string
param identityClientId string
@description('The shared identity the order-pubsub component authenticates with')
param messagingIdentityId string
param appInsightsName string
param serviceBusNamespaceName string
@description('Queue whose length drives scale-out')
param scaleQueueName string
@description('Extra environment variables: [{ name, value }]')
param env array = []
param minReplicas int = 1
param maxReplicas int = 10

var port = 8080

// Until azd deploys the real image, a placeholder that also listens on 8080 keeps the
// revision healthy; the /health probes are added once the real app is there.
var placeholderImage = 'mcr.microsoft.com/dotnet/samples:aspnetapp'

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: appInsightsName
}

module fetchImage 'fetch-container-image.bicep' = {
  name: '${name}-image'
  params: {
    exists: exists
    name: name
  }
}

var probes = [
  {
    type: 'Liveness'
    httpGet: {
      path: '/health'
      port: port
    }
    initialDelaySeconds: 5
    periodSeconds: 10
  }
  {
    type: 'Readiness'
    httpGet: {
      path: '/health'
      port: port
    }
    initialDelaySeconds: 5
    periodSeconds: 5
  }
]

resource app 'Microsoft.App/containerApps@2025-01-01' = {
  name: name
  location: location
  tags: union(tags, {
    'azd-service-name': serviceName
  })
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
      '${messagingIdentityId}': {}
    }
  }
  properties: {
    environmentId: environmentId
    workloadProfileName: 'Consumption'
    configuration: {
      activeRevisionsMode: 'Single'
      ingress: {
        external: false
        targetPort: port
        transport: 'http'
      }
      dapr: {
        enabled: true
        appId: daprAppId
        appPort: port
        appProtocol: 'http'
      }
      registries: [
        {
          server: registryServer
          identity: identityId
        }
      ]
      secrets: [
        {
          name: 'appinsights-connection-string'
          value: appInsights.properties.ConnectionString
        }
      ]
    }
    template: {
      containers: [
        {
          name: 'app'
          // Safe access: with no deployed app the module's list is empty and the placeholder is used.
          image: fetchImage.outputs.?containers[?0].?image ?? placeholderImage
          resources: {
            cpu: json('0.5')
            memory: '1Gi'
          }
          env: concat([
            { name: 'ASPNETCORE_HTTP_PORTS', value: string(port) }
            { name: 'AZURE_CLIENT_ID', value: identityClientId }
            { name: 'APPLICATIONINSIGHTS_CONNECTION_STRING', secretRef: 'appinsights-connection-string' }
          ], env)
          probes: exists ? probes : []
        }
      ]
      scale: {
        minReplicas: minReplicas
        maxReplicas: maxReplicas
        rules: [
          {
            name: 'queue-length'
            custom: {
              type: 'azure-servicebus'
              metadata: {
                namespace: serviceBusNamespaceName
                queueName: scaleQueueName
                messageCount: '100'
              }
              // The app's own identity; it holds Data Owner on this queue only, which the
              // scaler needs to read the queue's message count.
              identity: identityId
            }
          }
        ]
      }
    }
  }
}

output name string = app.name
output id string = app.id
