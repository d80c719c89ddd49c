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
param appInsightsName string
param serviceBusNamespaceName string
@description('Queue whose length drives scale-out')
param scaleQueueName string
@description('Extra environment variables: [{ name, value }]')
param env array = []
@description('Deliveries the sidecar runs into the app at once (daprd --app-max-concurrency); 0: no bound')
param daprMaxConcurrency int = 0
param minReplicas int = 1
param maxReplicas int = 10

var port = 8080

// Until azd deploys the real image, a placeholder that also listens on 8080 keeps the revision
// healthy. It serves neither /alive nor /health, so the probes go only on the real image: with
// `exists` alone, a provision after a failed first deploy (the app exists, still on the
// placeholder) would add probes the placeholder never passes, and the revision would never be ready.
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

// Safe access: with no deployed app the module's list is empty and the placeholder is used.
var image = fetchImage.outputs.?containers[?0].?image ?? placeholderImage
var runsRealImage = image != placeholderImage

// Liveness on /alive (the process works, no dependency checks): a storage or sidecar outage must
// never restart a container. Readiness on /health (the app can do its job now).
var probes = [
  {
    type: 'Liveness'
    httpGet: {
      path: '/alive'
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

// 2025-02-02-preview: its dapr block has maxConcurrency (daprd's --app-max-concurrency), which
// 2025-01-01, the newest stable version, lacks. azure.yaml names the same version for azd deploy,
// so that a deploy does not write the app back without it (AzdTests).
resource app 'Microsoft.App/containerApps@2025-02-02-preview' = {
  name: name
  location: location
  tags: union(tags, {
    'azd-service-name': serviceName
  })
  // System-assigned: the identity the order-pubsub component signs in with (it names no azureClientId).
  // User-assigned: everything else (ACR pulls, KEDA scaler, bindings, blob writes via AZURE_CLIENT_ID).
  identity: {
    type: 'SystemAssigned,UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
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
        // No appHealth: Dapr's app health check stops bulk subscriptions and input bindings while
        // /health fails, and a stopped one may never deliver again (dapr-wire 16). Backpressure is
        // the apps' per-entry RETRY answer instead; docs/azure.md says why.
        ...(daprMaxConcurrency > 0 ? { maxConcurrency: daprMaxConcurrency } : {})
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
          image: image
          resources: {
            cpu: json('0.5')
            memory: '1Gi'
          }
          env: concat([
            { name: 'ASPNETCORE_HTTP_PORTS', value: string(port) }
            { name: 'AZURE_CLIENT_ID', value: identityClientId }
            { name: 'APPLICATIONINSIGHTS_CONNECTION_STRING', secretRef: 'appinsights-connection-string' }
          ], env)
          probes: runsRealImage ? probes : []
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
@description('The app\'s system-assigned identity, which its sidecar uses for order-pubsub')
output principalId string = app.identity.principalId
