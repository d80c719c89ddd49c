// Reads the containers of an app that azd has already deployed, so that a later `azd provision`
// (e.g. after switching models) keeps the deployed image instead of the placeholder.
param exists bool
param name string

// A container as Container Apps returns it: only its image is read. Declared here rather than taken
// from the API's own types (resourceOutput<>), which a Bicep without types for this API version
// (azd's pinned one, docs/azure.md "Bicep") cannot resolve.
@description('A deployed container: its image (the API returns more, unread here)')
type deployedContainer = {
  image: string?
}

resource existingApp 'Microsoft.App/containerApps@2026-07-01' existing = if (exists) {
  name: name
}

// The resource is declared only when `exists`, and read only then: `!` tells the compiler so.
output containers deployedContainer[] = exists ? existingApp!.properties.template.containers : []
