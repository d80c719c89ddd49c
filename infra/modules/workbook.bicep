// An Azure Monitor workbook beside Application Insights: each burst's cycle time, orders per 5 s,
// RETRY/DROP answers and dead letters, per model. Its content is infra/workbook/bursts.workbook.json
// (edit it there, or in the portal and paste the gallery template back); the resource ids are
// filled in here.
import { resourceTags } from 'types.bicep'

param location string
param tags resourceTags
param appInsightsName string
param serviceBusNamespaceName string

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: appInsightsName
}

resource serviceBus 'Microsoft.ServiceBus/namespaces@2026-01-01' existing = {
  name: serviceBusNamespaceName
}

var content = replace(replace(loadTextContent('../workbook/bursts.workbook.json'), '__APP_INSIGHTS_ID__', appInsights.id), '__SERVICE_BUS_ID__', serviceBus.id)

resource workbook 'Microsoft.Insights/workbooks@2023-06-01' = {
  // A workbook's name is a GUID; this one is stable for the resource group, so a provision updates it.
  name: guid(resourceGroup().id, 'order-distribution-bursts')
  location: location
  tags: tags
  kind: 'shared'
  properties: {
    displayName: 'Order distribution: bursts'
    category: 'workbook'
    sourceId: appInsights.id
    serializedData: content
  }
}

output name string = workbook.name
