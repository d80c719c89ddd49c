// azd deploy (1.23.2 and later, azure.yaml requiredVersions) deploys receiver-standard with this: the template and
// settings main.bicep provisions it with (its SERVICE_RECEIVER_STANDARD_APP output) and the image azd has just pushed,
// probes included.
using 'modules/container-app.bicep'

param app = json(readEnvironmentVariable('SERVICE_RECEIVER_STANDARD_APP'))
param name = 'receiver-standard'
param appInsightsName = readEnvironmentVariable('APPLICATIONINSIGHTS_NAME')
param exists = true
param image = readEnvironmentVariable('SERVICE_RECEIVER_STANDARD_IMAGE_NAME')
