targetScope = 'subscription'
import { appSettings } from 'modules/types.bicep'

@minLength(1)
@maxLength(64)
@description('azd environment name; names the resource group and seeds the resource names')
param environmentName string

@minLength(1)
@description('Azure region for all resources')
param location string

@description('How orders travel (env Messaging__Model): input/output bindings per queue edge, or one pub/sub component consumed one message per request or in bulk')
@allowed([
  'bindings'
  'pubsub-single'
  'pubsub-bulk'
])
param messagingModel string

@description('Bulk subscribe maxMessagesCount (env Messaging__MaxMessagesCount)')
param maxMessagesCount int = 250

// Equal to maxMessagesCount (250 both), one bulk is in flight per sidecar: the component locks no
// more messages than one bulk holds, so none waits locked behind a bulk being handled (the seed's
// choice against lock expiry). The apps' bulk subscription also sends maxAwaitDurationMs
// (Messaging:MaxAwaitDurationMs), which the Service Bus component does not use: it hands the app what
// one receive returned, so that setting has no effect here (docs/azure.md, "Bulk settings on Service Bus").
@description('pubsub-bulk: order-pubsub maxActiveMessages: equal to maxMessagesCount keeps one bulk in flight per sidecar, so no message waits locked (seed article)')
param maxActiveMessages int = 250

@description('pubsub-bulk: order-pubsub maxConcurrentHandlers: 1 lets one handler gather full bulks (seed article)')
param maxConcurrentHandlers int = 1

// Single mode hands the app one message per request, so one handler would mean one message at a
// time: the single figure would measure that setting, not the model. 64 handlers = the receiver's
// process-wide bound on blob writes (Receiver:MaxConcurrentWrites, 64): more would only wait inside
// the app for a write slot while holding their locks. Twice as many active messages keep the next
// message already received when a handler frees, and still lock only a few seconds of work.
@description('pubsub-single: order-pubsub maxActiveMessages (messages one sidecar holds at a time)')
param singleMaxActiveMessages int = 128

@description('pubsub-single: order-pubsub maxConcurrentHandlers (deliveries one sidecar runs at once)')
param singleMaxConcurrentHandlers int = 64

// The bindings model's consumers per queue: locally scripts/run-local.sh renders this many RabbitMQ
// input components per queue (same setting, same default), each handing the app one message at a
// time; in Azure the one Service Bus input binding per queue runs this many handlers. A deployment
// test keeps both defaults equal.
@description('Bindings model: concurrent deliveries per input binding (Service Bus maxConcurrentHandlers)')
@minValue(1)
param bindingConsumersPerQueue int = 4

// The images run the apps' ahead-of-time code with tiered compilation off (Directory.Build.targets):
// cheapest for the first burst after a start. On, the runtime recompiles the code a replica runs
// hot, optimized: about half the CPU per order once a replica has handled some 6,000 orders, two
// and a half times the CPU in its first burst (docs/results.md, "Tiered compilation on, over
// bursts in a row"). For a trio whose replicas serve most bursts warm.
@description('The apps recompile their hot code optimized as they run (DOTNET_TieredCompilation): cheaper per order once warm, dearer in the first burst after a start')
param tieredCompilation bool = false

// In single and bindings every order is a request in each app it passes, and those requests are
// most of the telemetry Log Analytics bills a burst (docs/benchmark.md, "Telemetry items and bytes
// per order"). Below 100 the apps send that share of their requests, each standing for the rest
// (itemCount, which the queries weigh by); events, logs and failed calls are all sent.
@description('Percent of the apps\' requests sent to Application Insights (Telemetry:RequestSamplingPercentage); 100: all')
@allowed([100, 50, 25, 20, 10, 5, 2, 1])
param requestSamplingPercentage int = 100

@description('Service Bus tier. Standard: shared, throttled at about 1,000 credits/s per namespace (one per message operation), batches up to 256 KB. Premium: dedicated messaging units, batches up to 1 MB; the seed article\'s 27.8 s was measured on Premium.')
@allowed([
  'Standard'
  'Premium'
])
param serviceBusSku string = 'Standard'

@description('Premium only: messaging units of the namespace')
@allowed([
  1
  2
  4
  8
  16
])
param serviceBusMessagingUnits int = 1

@description('Messaging:RequestDeadline of the apps, in seconds (1..50): every delivery is answered within it. The broker and sidecar timers below are derived from it.')
@minValue(1)
@maxValue(50)
param requestDeadlineSeconds int = 10

// Soft delete keeps a deleted blob (or container) restorable, billed as stored, for this many days: a
// cleared 10,000-order burst costs a fraction of a cent (docs/azure.md, "Deleted orders and who touched them").
@description('Days a deleted blob or container can be restored (blob and container soft delete)')
@minValue(1)
@maxValue(365)
param softDeleteRetentionDays int = 7

@description('Object id of the user or principal running azd; gets send rights on the ingress queue and blob access for the load tool. Empty: none.')
param principalId string = ''

// azd (every version azure.yaml's requiredVersions accepts) sets AZURE_PRINCIPAL_TYPE from the signed-in
// account (User or ServicePrincipal); a deployment without azd may leave it empty, and a default here would
// be a guess: 'User' makes ARM refuse the assignments when a service principal deploys (any CI). Empty, the
// assignments name no type and ARM reads it from the principal itself (docs/azure.md, "What gets deployed").
@description('User or ServicePrincipal (AZURE_PRINCIPAL_TYPE); empty: ARM reads the type of principalId itself')
@allowed([
  ''
  'User'
  'ServicePrincipal'
])
param principalType string = ''

@description('Set by azd once the app has been deployed; keeps the deployed image on later provisions')
param distributorExists bool = false
param receiverExpressExists bool = false
param receiverStandardExists bool = false

var tags = {
  'azd-env-name': environmentName
}
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))

// Dapr's Service Bus bulk publish puts all entries of one request into one all-or-nothing batch,
// capped by the request's metadata.maxBulkPubBytes (the component-level setting is ignored). The
// tier caps a batch at 256 KB (Standard) or 1 MB (Premium); the budget keeps 8 KiB of that for the
// AMQP framing of the batch. The apps chunk by it (their chunker also counts 256 bytes per entry)
// and send it with every bulk publish, so broker batch and app chunks always agree.
var serviceBusBatchLimitBytes = serviceBusSku == 'Premium' ? 1048576 : 262144
var batchFramingRoomBytes = 8192
var maxBulkPubBytes = serviceBusBatchLimitBytes - batchFramingRoomBytes

// Tier change = new namespace: Service Bus cannot change a Standard namespace into a Premium one in
// place, so each tier gets its own name (the Standard name stays what it always was).
var serviceBusName = serviceBusSku == 'Premium' ? 'sbp-${resourceToken}' : 'sb-${resourceToken}'

// Names known when the deployment starts. Modules that look a resource up by name get these rather
// than another module's output (with an explicit dependsOn instead), so that what-if can predict
// what they change instead of skipping them.
var logAnalyticsName = 'log-${resourceToken}'
var appInsightsName = 'appi-${resourceToken}'
var storageAccountName = 'st${resourceToken}'
var containerAppsEnvironmentName = 'cae-${resourceToken}'

// Handler settings of order-pubsub for the chosen model.
var pubSubMaxActiveMessages = messagingModel == 'pubsub-single' ? singleMaxActiveMessages : maxActiveMessages
var pubSubMaxConcurrentHandlers = messagingModel == 'pubsub-single' ? singleMaxConcurrentHandlers : maxConcurrentHandlers

// Input bindings: one message per handler, and one more locked per handler so that the next is
// already received when a handler frees (as single mode's 128 for 64).
var bindingMaxConcurrentHandlers = bindingConsumersPerQueue
var bindingMaxActiveMessages = 2 * bindingConsumersPerQueue

// Single mode: the sidecar runs at most this many deliveries into the app at once (Container Apps'
// dapr.maxConcurrency, daprd's --app-max-concurrency), the same number as the component's handlers
// and the receiver's bound on blob writes: real sidecars with it passed the 10 s deadline far less
// often cold (docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own"). Bulk
// and bindings run without it (0: no bound).
var daprMaxConcurrency = messagingModel == 'pubsub-single' ? singleMaxConcurrentHandlers : 0

// daprd writes a warning for every entry its app answers RETRY one at a time: through a storage outage
// in pubsub-single, tens of thousands of lines per receiver's sidecar, each billed in Log Analytics
// (ContainerAppConsoleLogs). As the local run does (docs/local-run.md, "pubsub-single:
// appMaxConcurrency"), that model's sidecars log errors only; the apps log each fault once.
var daprLogLevel = messagingModel == 'pubsub-single' ? 'error' : 'info'

// Dapr's Service Bus components wait up to maxConnectionRecoveryInSec (default 300 s) between
// reconnects. On a first deployment the sidecars start before their role assignments apply, and
// would then sit out minutes after the rights arrive; 30 s bounds that wait.
var connectionRecoveryMaxSeconds = 30

// Timers, all from the apps' delivery deadline (decisions: every delivery answered within it):
// - one delivery attempt by the sidecar may take the deadline; the inbound timeout (resiliency
//   policy) only cuts off an app that hangs, so it is the deadline plus 5 s;
// - a failed attempt is retried in the sidecar 5 times, backing off from 1 s to 4 s: about 15 s
//   of waiting, enough to bridge an app restart without sending the message back to Service Bus;
// - Dapr's Service Bus handler timeout must outlast one delivery with all its retries, or the
//   handler is cancelled mid-retry and the message comes again (a duplicate delivery): 6 attempts
//   of 15 s plus 5 waits of at most 4 s, plus 10 s margin = 120 s;
// - the lock must outlive the time between two lock renewals with margin: Dapr renews every
//   lockRenewalInSec (20 s) for as long as the message is in the sidecar, so a 60 s lock survives
//   one failed renewal; 60 s is also 6 times the deadline, so an unrenewed lock still covers an
//   attempt with room. maxDeliveryCount 10 then dead-letters a message only after 10 whole
//   deliveries (each with its retries) failed.
var inboundAttemptTimeoutSeconds = requestDeadlineSeconds + 5
var inboundMaxRetries = 5
var inboundInitialDelayMs = 1000
var inboundMaxIntervalMs = 4000
var handlerTimeoutInSec = (inboundMaxRetries + 1) * inboundAttemptTimeoutSeconds + inboundMaxRetries * inboundMaxIntervalMs / 1000 + 10
var lockRenewalInSec = 20
var lockDurationSeconds = 60
var maxDeliveryCount = 10

var queueNames = {
  ingress: 'q-order-ingress'
  express: 'q-order-express'
  standard: 'q-order-standard'
  // Where the apps keep each message they refuse for good, with its body and the reason (docs/azure.md, "Dead letters").
  deadLetter: 'q-order-deadletter'
}

// KEDA's scale rules poll each queue every 10 s instead of 30 s (KEDA's default), so a burst adds
// replicas within seconds of its instant. The cooldown is KEDA's default, stated: by KEDA's ScaledObject
// specification it governs only the last step to zero, which minReplicas 1 never takes; replicas a
// burst added go again minutes later (the autoscaler's scale-in), so a burst soon after another may
// start with more than one replica per app, and scripts/azure-burst.sh records how many each started with.
var scalePollingIntervalSeconds = 10
var scaleCooldownPeriodSeconds = 300

var roles = {
  serviceBusDataSender: '69a216fc-b8fb-44d8-bc22-1f3c2cd27a39'
  serviceBusDataReceiver: '4f6d3b9b-027b-4f4c-9142-0e5a2a2247e0'
  // Only for the KEDA scalers' own identities: reading a queue's message count needs the Manage right.
  serviceBusDataOwner: '090c5cfd-751d-490a-894a-3ce6f1109419'
  storageBlobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
}

resource rg 'Microsoft.Resources/resourceGroups@2025-04-01' = {
  name: 'rg-${environmentName}'
  location: location
  tags: tags
}

module monitoring 'modules/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    location: location
    tags: tags
    logAnalyticsName: logAnalyticsName
    appInsightsName: appInsightsName
    // The identity each app's code signs in with (AZURE_CLIENT_ID) sends its telemetry.
    publisherPrincipalIds: [
      identities.outputs.distributorPrincipalId
      identities.outputs.receiverExpressPrincipalId
      identities.outputs.receiverStandardPrincipalId
    ]
  }
}

module identities 'modules/identities.bicep' = {
  name: 'identities'
  scope: rg
  params: {
    location: location
    tags: tags
    resourceToken: resourceToken
  }
}

module registry 'modules/registry.bicep' = {
  name: 'registry'
  scope: rg
  dependsOn: [
    monitoring
  ]
  params: {
    location: location
    tags: tags
    name: 'cr${resourceToken}'
    logAnalyticsName: logAnalyticsName
    pullPrincipalIds: [
      identities.outputs.distributorPrincipalId
      identities.outputs.receiverExpressPrincipalId
      identities.outputs.receiverStandardPrincipalId
    ]
  }
}

module serviceBus 'modules/servicebus.bicep' = {
  name: 'servicebus'
  scope: rg
  dependsOn: [
    monitoring
  ]
  params: {
    location: location
    tags: tags
    name: serviceBusName
    logAnalyticsName: logAnalyticsName
    sku: serviceBusSku
    messagingUnits: serviceBusMessagingUnits
    lockDuration: 'PT${lockDurationSeconds}S'
    maxDeliveryCount: maxDeliveryCount
    queueNames: [
      queueNames.ingress
      queueNames.express
      queueNames.standard
      queueNames.deadLetter
    ]
  }
}

module storage 'modules/storage.bicep' = {
  name: 'storage'
  scope: rg
  dependsOn: [
    monitoring
  ]
  params: {
    location: location
    tags: tags
    name: storageAccountName
    logAnalyticsName: logAnalyticsName
    softDeleteRetentionDays: softDeleteRetentionDays
    containerNames: [
      'express-outbox'
      'standard-outbox'
      'test-data'
      // order-load ceiling: storage alone, which the user may write into and nothing else
      'storage-alone'
      // order-load's own: the lease that lets one burst at a time run against this store
      'order-load'
    ]
  }
}

// Queue rights known before the apps exist (see modules/identities.bicep). Loops must be computable
// when the deployment starts, so they name principals by key, and principalIds resolves the keys
// inside the loop body. Why each assignment exists:
// - the scalers' identities (no container can use them): Data Owner on the one queue their app
//   scales on: KEDA's azure-servicebus scaler documents that it needs the Manage right, which among
//   the Service Bus data roles only Data Owner grants (docs/azure.md, Roles);
// - the user: sends the burst into the ingress queue (the load tool).
// The apps' own queue rights are on their system-assigned identities (serviceBusRoleAssignments).
var principalIds = {
  distributorScaler: identities.outputs.distributorScalerPrincipalId
  receiverExpressScaler: identities.outputs.receiverExpressScalerPrincipalId
  receiverStandardScaler: identities.outputs.receiverStandardScalerPrincipalId
  user: principalId
}

var queueRoleAssignments = concat([
  { who: 'distributorScaler', queue: queueNames.ingress, role: roles.serviceBusDataOwner }
  { who: 'receiverExpressScaler', queue: queueNames.express, role: roles.serviceBusDataOwner }
  { who: 'receiverStandardScaler', queue: queueNames.standard, role: roles.serviceBusDataOwner }
], empty(principalId) ? [] : [
  // The load tool's sidecar (scripts/azure-burst.sh) signs in as the user and sends the burst.
  { who: 'user', queue: queueNames.ingress, role: roles.serviceBusDataSender }
  // The user reads the dead letters, and takes one off once it is resubmitted (to the ingress queue, above).
  { who: 'user', queue: queueNames.deadLetter, role: roles.serviceBusDataReceiver }
])

// A principal id exists only once its identity does, so what-if cannot predict these assignments,
// whose names are guid(scope, principal id, role): the linter's what-if-short-circuiting warning is
// off for that parameter alone. A name from the principal's key instead would differ from the
// assignments already deployed, and ARM refuses a second assignment of the same role to the same
// principal on the same scope (RoleAssignmentExists).
module queueRoles 'modules/servicebus-queue-role.bicep' = [for (assignment, i) in queueRoleAssignments: {
  name: 'queue-role-${i}'
  scope: rg
  dependsOn: [
    serviceBus
  ]
  params: {
    namespaceName: serviceBusName
    queueName: assignment.queue
    #disable-next-line what-if-short-circuiting
    principalId: principalIds[assignment.who]
    principalType: assignment.who == 'user' ? principalType : 'ServicePrincipal'
    roleDefinitionId: assignment.role
  }
}]

// The receivers' user-assigned identities (their code's AZURE_CLIENT_ID) write their own outbox.
var containerPrincipalIds = {
  receiverExpress: identities.outputs.receiverExpressPrincipalId
  receiverStandard: identities.outputs.receiverStandardPrincipalId
  user: principalId
}

var containerRoleAssignments = concat([
  { who: 'receiverExpress', container: 'express-outbox' }
  { who: 'receiverStandard', container: 'standard-outbox' }
], empty(principalId) ? [] : [
  { who: 'user', container: 'express-outbox' }
  { who: 'user', container: 'standard-outbox' }
  { who: 'user', container: 'test-data' }
  { who: 'user', container: 'storage-alone' }
  { who: 'user', container: 'order-load' }
])

module containerRoles 'modules/storage-container-role.bicep' = [for (assignment, i) in containerRoleAssignments: {
  name: 'container-role-${i}'
  scope: rg
  dependsOn: [
    storage
  ]
  params: {
    storageAccountName: storageAccountName
    containerName: assignment.container
    #disable-next-line what-if-short-circuiting
    principalId: containerPrincipalIds[assignment.who]
    principalType: assignment.who == 'user' ? principalType : 'ServicePrincipal'
    roleDefinitionId: roles.storageBlobDataContributor
  }
}]

// Each app's one identity for Service Bus, its system-assigned one, which its sidecar signs in with in
// both models (order-pubsub and the bindings name no azureClientId): the distributor receives from
// q-order-ingress and sends to the two delivery queues; each receiver receives from its queue. The
// user-assigned identity holds no Service Bus right, so no app holds the same right twice. These
// exist only once the apps do, so they are assigned after the apps (see docs/azure.md).
var appPrincipalIds = {
  distributor: distributor.outputs.principalId
  receiverExpress: receiverExpress.outputs.principalId
  receiverStandard: receiverStandard.outputs.principalId
}

var serviceBusRoleAssignments = [
  { who: 'distributor', queue: queueNames.ingress, role: roles.serviceBusDataReceiver }
  { who: 'distributor', queue: queueNames.express, role: roles.serviceBusDataSender }
  { who: 'distributor', queue: queueNames.standard, role: roles.serviceBusDataSender }
  { who: 'receiverExpress', queue: queueNames.express, role: roles.serviceBusDataReceiver }
  { who: 'receiverStandard', queue: queueNames.standard, role: roles.serviceBusDataReceiver }
  // Each app keeps what it refuses for good on the dead-letter queue: send only.
  { who: 'distributor', queue: queueNames.deadLetter, role: roles.serviceBusDataSender }
  { who: 'receiverExpress', queue: queueNames.deadLetter, role: roles.serviceBusDataSender }
  { who: 'receiverStandard', queue: queueNames.deadLetter, role: roles.serviceBusDataSender }
]

module serviceBusRoles 'modules/servicebus-queue-role.bicep' = [for (assignment, i) in serviceBusRoleAssignments: {
  name: 'app-queue-role-${i}'
  scope: rg
  params: {
    namespaceName: serviceBusName
    queueName: assignment.queue
    #disable-next-line what-if-short-circuiting
    principalId: appPrincipalIds[assignment.who]
    principalType: 'ServicePrincipal'
    roleDefinitionId: assignment.role
  }
}]

// The burst workbook in Azure Monitor (Application Insights > Workbooks): cycle time per burst,
// orders per 5 s, RETRY/DROP answers and dead letters, per model.
module workbook 'modules/workbook.bicep' = {
  name: 'workbook'
  scope: rg
  dependsOn: [
    monitoring
    serviceBus
  ]
  params: {
    location: location
    tags: tags
    appInsightsName: appInsightsName
    serviceBusNamespaceName: serviceBusName
  }
}

module containerAppsEnvironment 'modules/container-apps-environment.bicep' = {
  name: 'container-apps-environment'
  scope: rg
  dependsOn: [
    monitoring
  ]
  params: {
    location: location
    tags: tags
    name: containerAppsEnvironmentName
    logAnalyticsName: logAnalyticsName
  }
}

module daprComponents 'modules/dapr-components.bicep' = {
  name: 'dapr-components'
  scope: rg
  dependsOn: [
    containerAppsEnvironment
  ]
  params: {
    environmentName: containerAppsEnvironmentName
    messagingModel: messagingModel
    serviceBusNamespaceFqdn: serviceBus.outputs.fqdn
    maxActiveMessages: pubSubMaxActiveMessages
    maxConcurrentHandlers: pubSubMaxConcurrentHandlers
    bindingMaxActiveMessages: bindingMaxActiveMessages
    bindingMaxConcurrentHandlers: bindingMaxConcurrentHandlers
    handlerTimeoutInSec: handlerTimeoutInSec
    lockRenewalInSec: lockRenewalInSec
    connectionRecoveryMaxSeconds: connectionRecoveryMaxSeconds
    inboundAttemptTimeoutSeconds: inboundAttemptTimeoutSeconds
    inboundMaxRetries: inboundMaxRetries
    inboundInitialDelayMs: inboundInitialDelayMs
    inboundMaxIntervalMs: inboundMaxIntervalMs
  }
}

// A Dapr sidecar loads its components when it starts, and a component change alone changes no
// container app, so no new revision would start: the running sidecars would keep the old model's
// components, which the postprovision hook then removes. Every setting that shapes the components
// is therefore also in the apps' environment (DAPR_COMPONENTS_STAMP; the apps ignore it): any change
// makes a new revision of each app, whose new sidecars load the new components, before the hook runs.
var daprComponentsStamp = join([
  messagingModel
  serviceBusName
  string(pubSubMaxActiveMessages)
  string(pubSubMaxConcurrentHandlers)
  string(bindingMaxActiveMessages)
  string(bindingMaxConcurrentHandlers)
  string(handlerTimeoutInSec)
  string(lockRenewalInSec)
  string(connectionRecoveryMaxSeconds)
  string(inboundAttemptTimeoutSeconds)
  string(inboundMaxRetries)
  string(inboundInitialDelayMs)
  string(inboundMaxIntervalMs)
], '/')

var appsEnv = [
  { name: 'DAPR_COMPONENTS_STAMP', value: daprComponentsStamp }
  { name: 'Messaging__Model', value: messagingModel }
  { name: 'Messaging__MaxMessagesCount', value: string(maxMessagesCount) }
  { name: 'Messaging__MaxBulkPublishBytes', value: string(maxBulkPubBytes) }
  { name: 'Messaging__RequestDeadline', value: '00:00:${padLeft(string(requestDeadlineSeconds), 2, '0')}' }
  // Set either way, so that a revision's environment says how its apps run.
  { name: 'DOTNET_TieredCompilation', value: tieredCompilation ? '1' : '0' }
  { name: 'Telemetry__RequestSamplingPercentage', value: string(requestSamplingPercentage) }
]

var distributorApp appSettings = {
  location: location
  tags: tags
  serviceName: 'distributor'
  daprAppId: 'distributor'
  environmentId: containerAppsEnvironment.outputs.id
  registryServer: registry.outputs.loginServer
  identityId: identities.outputs.distributorId
  identityClientId: identities.outputs.distributorClientId
  scalerIdentityId: identities.outputs.distributorScalerId
  serviceBusNamespaceName: serviceBus.outputs.name
  scalePollingIntervalSeconds: scalePollingIntervalSeconds
  scaleCooldownPeriodSeconds: scaleCooldownPeriodSeconds
  scaleQueueName: queueNames.ingress
  daprMaxConcurrency: daprMaxConcurrency
  daprLogLevel: daprLogLevel
  env: appsEnv
}

module distributor 'modules/container-app.bicep' = {
  name: 'app-distributor'
  scope: rg
  // Role assignments first: the first revision must already be allowed to pull, and its scale rule to read
  // its queue (the app's own queue rights follow the app: serviceBusRoleAssignments).
  dependsOn: [
    monitoring
    queueRoles
    daprComponents
  ]
  params: {
    name: 'distributor'
    appInsightsName: appInsightsName
    app: distributorApp
    exists: distributorExists
  }
}

var receiverExpressApp appSettings = {
  location: location
  tags: tags
  serviceName: 'receiver-express'
  daprAppId: 'receiver-express'
  environmentId: containerAppsEnvironment.outputs.id
  registryServer: registry.outputs.loginServer
  identityId: identities.outputs.receiverExpressId
  identityClientId: identities.outputs.receiverExpressClientId
  scalerIdentityId: identities.outputs.receiverExpressScalerId
  serviceBusNamespaceName: serviceBus.outputs.name
  scalePollingIntervalSeconds: scalePollingIntervalSeconds
  scaleCooldownPeriodSeconds: scaleCooldownPeriodSeconds
  scaleQueueName: queueNames.express
  daprMaxConcurrency: daprMaxConcurrency
  daprLogLevel: daprLogLevel
  env: concat(appsEnv, [
    { name: 'INSTANCE', value: 'express' }
    { name: 'Storage__AccountUrl', value: storage.outputs.blobEndpoint }
  ])
}

module receiverExpress 'modules/container-app.bicep' = {
  name: 'app-receiver-express'
  scope: rg
  dependsOn: [
    monitoring
    queueRoles
    containerRoles
    daprComponents
  ]
  params: {
    name: 'receiver-express'
    appInsightsName: appInsightsName
    app: receiverExpressApp
    exists: receiverExpressExists
  }
}

var receiverStandardApp appSettings = {
  location: location
  tags: tags
  serviceName: 'receiver-standard'
  daprAppId: 'receiver-standard'
  environmentId: containerAppsEnvironment.outputs.id
  registryServer: registry.outputs.loginServer
  identityId: identities.outputs.receiverStandardId
  identityClientId: identities.outputs.receiverStandardClientId
  scalerIdentityId: identities.outputs.receiverStandardScalerId
  serviceBusNamespaceName: serviceBus.outputs.name
  scalePollingIntervalSeconds: scalePollingIntervalSeconds
  scaleCooldownPeriodSeconds: scaleCooldownPeriodSeconds
  scaleQueueName: queueNames.standard
  daprMaxConcurrency: daprMaxConcurrency
  daprLogLevel: daprLogLevel
  env: concat(appsEnv, [
    { name: 'INSTANCE', value: 'standard' }
    { name: 'Storage__AccountUrl', value: storage.outputs.blobEndpoint }
  ])
}

module receiverStandard 'modules/container-app.bicep' = {
  name: 'app-receiver-standard'
  scope: rg
  dependsOn: [
    monitoring
    queueRoles
    containerRoles
    daprComponents
  ]
  params: {
    name: 'receiver-standard'
    appInsightsName: appInsightsName
    app: receiverStandardApp
    exists: receiverStandardExists
  }
}

output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output AZURE_CONTAINER_REGISTRY_ENDPOINT string = registry.outputs.loginServer
output AZURE_CONTAINER_REGISTRY_NAME string = registry.outputs.name
output AZURE_CONTAINER_APPS_ENVIRONMENT_NAME string = containerAppsEnvironment.outputs.name
output AZURE_CONTAINER_APPS_ENVIRONMENT_ID string = containerAppsEnvironment.outputs.id
output SERVICEBUS_NAMESPACE string = serviceBus.outputs.name
output SERVICEBUS_NAMESPACE_FQDN string = serviceBus.outputs.fqdn
output STORAGE_ACCOUNT_NAME string = storage.outputs.name
output STORAGE_BLOB_ENDPOINT string = storage.outputs.blobEndpoint
output APPLICATIONINSIGHTS_NAME string = monitoring.outputs.appInsightsName
output LOG_ANALYTICS_WORKSPACE_NAME string = monitoring.outputs.logAnalyticsName
output LOG_ANALYTICS_WORKSPACE_ID string = monitoring.outputs.logAnalyticsCustomerId
output DAPR_PLACEHOLDER_SCOPE string = daprComponents.outputs.placeholderScope
output SERVICEBUS_SKU string = serviceBusSku
output MAX_BULK_PUBLISH_BYTES int = maxBulkPubBytes
output AZURE_SUBSCRIPTION_ID string = subscription().subscriptionId
output WORKBOOK_NAME string = workbook.outputs.name
// What azd deploy deploys each app with (infra/<service>.bicepparam): these settings and the image it pushed.
output SERVICE_DISTRIBUTOR_APP appSettings = distributorApp
output SERVICE_RECEIVER_EXPRESS_APP appSettings = receiverExpressApp
output SERVICE_RECEIVER_STANDARD_APP appSettings = receiverStandardApp
