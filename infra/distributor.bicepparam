// azd deploy (1.23.2 and later, azure.yaml requiredVersions) deploys distributor with this: the template and
// settings main.bicep provisions it with (its SERVICE_DISTRIBUTOR_APP output) and the image azd has just pushed,
// probes included.
using 'modules/container-app.bicep'

param app = json(readEnvironmentVariable('SERVICE_DISTRIBUTOR_APP'))
param name = 'distributor'
param appInsightsName = readEnvironmentVariable('APPLICATIONINSIGHTS_NAME')
param exists = true
param image = readEnvironmentVariable('SERVICE_DISTRIBUTOR_IMAGE_NAME')
