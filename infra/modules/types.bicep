// Types the modules share with main.bicep.

@export()
@description('Tags of a resource: names to string values')
type resourceTags = {
  *: string
}

@export()
@description('A plain environment variable of a container (no secretRef)')
type environmentVariable = {
  name: string
  value: string
}

@export()
@description('One container app as main.bicep provisions it, and as azd deploy deploys it with its image')
type appSettings = {
  location: string
  tags: resourceTags
  @description('azd service name from azure.yaml; azd finds the app by this tag')
  serviceName: string
  daprAppId: string
  environmentId: string
  registryServer: string
  @description('The app\'s own user-assigned identity: ACR pulls, blob access and telemetry (AZURE_CLIENT_ID); no Service Bus right')
  identityId: string
  identityClientId: string
  @description('The identity of the KEDA scale rule alone (Data Owner on scaleQueueName); no container gets it')
  scalerIdentityId: string
  serviceBusNamespaceName: string
  @description('Queue whose length drives scale-out')
  scaleQueueName: string
  @description('KEDA pollingInterval: how often the scale rule reads the queue, seconds')
  scalePollingIntervalSeconds: int
  @description('KEDA cooldownPeriod, seconds (only the last step to zero, which minReplicas 1 never takes)')
  scaleCooldownPeriodSeconds: int
  @description('Environment variables besides those every app gets')
  env: environmentVariable[]
  @description('Deliveries the sidecar runs into the app at once (daprd --app-max-concurrency); 0: no bound')
  daprMaxConcurrency: int
  @description('The sidecar\'s log level (daprd --log-level)')
  daprLogLevel: 'info' | 'error'
}
