// One Dapr-enabled container app. The apps listen on 8080 (.NET container images' default).
import { appSettings } from 'types.bicep'

@description('The app: its names, identities, scale rule and settings')
param app appSettings
@description('The container app\'s name, known when the deployment starts')
param name string
@description('Application Insights of the deployment (its connection string becomes the app\'s secret)')
param appInsightsName string
@description('true once azd has deployed the app (SERVICE_<NAME>_RESOURCE_EXISTS); infra/<service>.bicepparam: true')
param exists bool
@description('The image azd deploy just pushed (infra/<service>.bicepparam); empty on a provision: the deployed one')
param image string = ''
param minReplicas int = 1
param maxReplicas int = 10

var port = 8080

// Until azd deploys the real image, a placeholder that also listens on 8080 keeps the revision
// healthy. It serves neither /alive nor /health, so the probes go only on the real image: with
// `exists` alone, a provision after a failed first deploy (the app exists, still on the
// placeholder) would add probes the placeholder never passes, and the revision would never be ready.
// azd deploy deploys this same template with the image it pushed (infra/<service>.bicepparam), so
// the first revision that runs the app's own image already has its probes.
var placeholderImage = 'mcr.microsoft.com/dotnet/samples:aspnetapp'

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: appInsightsName
}

module fetchImage 'fetch-container-image.bicep' = {
  name: '${name}-image'
  params: {
    exists: exists && empty(image)
    name: name
  }
}

// Safe access: with no deployed app the module's list is empty and the placeholder is used.
var runImage = !empty(image) ? image : fetchImage.outputs.?containers[?0].?image ?? placeholderImage
var runsRealImage = runImage != placeholderImage

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
resource containerApp 'Microsoft.App/containerApps@2026-07-01' = {
  name: name
  location: app.location
  tags: union(app.tags, {
    'azd-service-name': app.serviceName
  })
  // System-assigned: the app's one identity for Service Bus, which its sidecar signs in with (the
  // components name no azureClientId). User-assigned: the app's own (ACR pulls, blob writes and
  // telemetry via AZURE_CLIENT_ID; no Service Bus right) and the scale rule's (see identitySettings).
  identity: {
    type: 'SystemAssigned,UserAssigned'
    userAssignedIdentities: {
      '${app.identityId}': {}
      '${app.scalerIdentityId}': {}
    }
  }
  properties: {
    environmentId: app.environmentId
    workloadProfileName: 'Consumption'
    configuration: {
      activeRevisionsMode: 'Single'
      // Lifecycle None: the platform uses the scaler's identity for the scale rule, and no container
      // can get a token for it (its Data Owner right would let the app delete its queue).
      identitySettings: [
        {
          identity: app.scalerIdentityId
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
        appId: app.daprAppId
        appPort: port
        appProtocol: 'http'
        // No appHealth on purpose, though this API version has it: Dapr's app health check stops
        // bulk subscriptions and input bindings while /health fails, and a stopped one may never
        // deliver again (docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own"). Backpressure is the apps' per-entry RETRY.
        ...(app.daprMaxConcurrency > 0 ? { maxConcurrency: app.daprMaxConcurrency } : {})
        logLevel: app.daprLogLevel
      }
      registries: [
        {
          server: app.registryServer
          identity: app.identityId
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
          image: runImage
          resources: {
            cpu: json('0.5')
            memory: '1Gi'
          }
          env: concat([
            { name: 'ASPNETCORE_HTTP_PORTS', value: string(port) }
            { name: 'AZURE_CLIENT_ID', value: app.identityClientId }
            { name: 'APPLICATIONINSIGHTS_CONNECTION_STRING', secretRef: 'appinsights-connection-string' }
            // Application Insights takes Entra ID only (monitoring.bicep): the SDK signs in as this identity.
            { name: 'ApplicationInsights__ManagedIdentityClientId', value: app.identityClientId }
          ], app.env)
          probes: runsRealImage ? probes : []
        }
      ]
      scale: {
        minReplicas: minReplicas
        maxReplicas: maxReplicas
        pollingInterval: app.scalePollingIntervalSeconds
        cooldownPeriod: app.scaleCooldownPeriodSeconds
        rules: [
          {
            name: 'queue-length'
            custom: {
              type: 'azure-servicebus'
              metadata: {
                namespace: app.serviceBusNamespaceName
                queueName: app.scaleQueueName
                messageCount: '100'
              }
              // The scaler's own identity: Data Owner on this queue only (reading the message count
              // needs the Manage right), available to the platform and to no container.
              identity: app.scalerIdentityId
            }
          }
        ]
      }
    }
  }
}

output name string = containerApp.name
output id string = containerApp.id
@description('The app\'s system-assigned identity, its one identity for Service Bus (its sidecar\'s components)')
output principalId string = containerApp.identity.principalId
