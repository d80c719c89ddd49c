// One Dapr-enabled container app. The apps listen on 8080 (.NET container images' default).
import { environmentVariable, resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param name string
@description('azd service name from azure.yaml; azd finds the app by this tag')
param serviceName string
param daprAppId string
@description('true once azd has deployed the app (SERVICE_<NAME>_RESOURCE_EXISTS)')
param exists bool
param environmentId string
param registryServer string
@description('The app\'s own user-assigned identity: ACR pulls, blob access and telemetry (AZURE_CLIENT_ID); no Service Bus right')
param identityId string
param identityClientId string
@description('The identity of the KEDA scale rule alone (Data Owner on scaleQueueName); no container gets it')
param scalerIdentityId string
param appInsightsName string
param serviceBusNamespaceName string
@description('Queue whose length drives scale-out')
param scaleQueueName string
@description('KEDA pollingInterval: how often the scale rule reads the queue, seconds')
param scalePollingIntervalSeconds int
@description('KEDA cooldownPeriod, seconds (only the last step to zero, which minReplicas 1 never takes)')
param scaleCooldownPeriodSeconds int
@description('Extra environment variables')
param env environmentVariable[] = []
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

// 2026-07-01, the newest GA version of Microsoft.App. What the apps need arrived earlier: identitySettings
// and a scale rule's identity are in 2025-01-01, dapr.maxConcurrency (daprd's --app-max-concurrency) in
// 2025-07-01; only the components' resiliency policies need 2026-07-01 (dapr-components.bicep), and one
// version for every Microsoft.App resource keeps that simple. azure.yaml names the same version for azd
// deploy, so that a deploy does not write the app back without what only a newer version has (AzdTests).
resource app 'Microsoft.App/containerApps@2026-07-01' = {
  name: name
  location: location
  tags: union(tags, {
    'azd-service-name': serviceName
  })
  // System-assigned: the app's one identity for Service Bus, which its sidecar signs in with (the
  // components name no azureClientId). User-assigned: the app's own (ACR pulls, blob writes and
  // telemetry via AZURE_CLIENT_ID; no Service Bus right) and the scale rule's (see identitySettings).
  identity: {
    type: 'SystemAssigned,UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
      '${scalerIdentityId}': {}
    }
  }
  properties: {
    environmentId: environmentId
    workloadProfileName: 'Consumption'
    configuration: {
      activeRevisionsMode: 'Single'
      // Lifecycle None: the platform uses the scaler's identity for the scale rule, and no container
      // can get a token for it (its Data Owner right would let the app delete its queue).
      identitySettings: [
        {
          identity: scalerIdentityId
          lifecycle: 'None'
        }
      ]
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
        // No appHealth on purpose, though this API version has it: Dapr's app health check stops
        // bulk subscriptions and input bindings while /health fails, and a stopped one may never
        // deliver again (docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own"). Backpressure is the apps' per-entry RETRY.
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
            // Application Insights takes Entra ID only (monitoring.bicep): the SDK signs in as this identity.
            { name: 'ApplicationInsights__ManagedIdentityClientId', value: identityClientId }
          ], env)
          probes: runsRealImage ? probes : []
        }
      ]
      scale: {
        minReplicas: minReplicas
        maxReplicas: maxReplicas
        pollingInterval: scalePollingIntervalSeconds
        cooldownPeriod: scaleCooldownPeriodSeconds
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
              // The scaler's own identity: Data Owner on this queue only (reading the message count
              // needs the Manage right), available to the platform and to no container.
              identity: scalerIdentityId
            }
          }
        ]
      }
    }
  }
}

output name string = app.name
output id string = app.id
@description('The app\'s system-assigned identity, its one identity for Service Bus (its sidecar\'s components)')
output principalId string = app.identity.principalId
