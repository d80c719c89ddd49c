// Reads the containers of an app that azd has already deployed, so that a later `azd provision`
// (e.g. after switching models) keeps the deployed image instead of the placeholder.
param exists bool
param name string

resource existingApp 'Microsoft.App/containerApps@2026-07-01' existing = if (exists) {
  name: name
}

// The resource is declared only when `exists`, and read only then: `!` tells the compiler so.
output containers resourceOutput<'Microsoft.App/containerApps@2026-07-01'>.properties.template.containers = exists ? existingApp!.properties.template.containers : []
