#!/usr/bin/env node
// Parses and semantically checks .kql files with Kusto.Language (Microsoft's
// @kusto/language-service-next) against the tables the queries read.
// Usage: node scripts/kql-check.js scripts/kql/*.kql
// Exit codes: 0 no errors, 1 errors found, 2 usage, 3 language service not installed
// (scripts/install-tools.sh installs it into ./.tools).
'use strict';
const fs = require('fs');
const path = require('path');

const appInsightsCommon =
  'itemType:string, customDimensions:dynamic, customMeasurements:dynamic, operation_Name:string, ' +
  'operation_Id:string, operation_ParentId:string, operation_SyntheticSource:string, session_Id:string, ' +
  'user_Id:string, user_AuthenticatedId:string, user_AccountId:string, application_Version:string, ' +
  'client_Type:string, client_Model:string, client_OS:string, client_IP:string, client_City:string, ' +
  'client_StateOrProvince:string, client_CountryOrRegion:string, client_Browser:string, ' +
  'cloud_RoleName:string, cloud_RoleInstance:string, appId:string, appName:string, iKey:string, ' +
  'sdkVersion:string, itemId:string, itemCount:int';

// What every Log Analytics table has, hidden from `*` but billed by: whether and how much it bills.
const billing = '_IsBillable:bool, _BilledSize:real';
// Application Insights' tables as the workspace holds them (AppRequests, ...): the columns the queries read.
const workspaceAppInsights = `(TimeGenerated:datetime, AppRoleName:string, AppRoleInstance:string, Type:string, ` +
  `Properties:dynamic, ${billing})`;

// Application Insights (as `az monitor app-insights query` sees it) and Log Analytics tables.
const tables = {
  requests: `(timestamp:datetime, id:string, source:string, name:string, url:string, success:bool, ` +
    `resultCode:string, duration:real, performanceBucket:string, ${appInsightsCommon})`,
  traces: `(timestamp:datetime, message:string, severityLevel:int, ${appInsightsCommon})`,
  customEvents: `(timestamp:datetime, name:string, ${appInsightsCommon})`,
  dependencies: `(timestamp:datetime, id:string, target:string, type:string, name:string, data:string, ` +
    `success:bool, resultCode:string, duration:real, performanceBucket:string, ${appInsightsCommon})`,
  // The resource-specific tables the Container Apps environment's diagnostic setting writes (Azure Monitor's table
  // reference: ContainerAppConsoleLogs, ContainerAppSystemLogs).
  ContainerAppConsoleLogs: '(TenantId:string, SourceSystem:string, TimeGenerated:datetime, ' +
    'ContainerAppName:string, ContainerGroupId:string, ContainerGroupName:string, ContainerId:string, ' +
    'ContainerImage:string, ContainerName:string, EnvironmentName:string, JobName:string, Location:string, ' +
    'Log:string, OperationName:string, RevisionName:string, Stream:string, _SubscriptionId:string, ' +
    `Type:string, _ResourceId:string, ${billing})`,
  ContainerAppSystemLogs: '(TenantId:string, TimeGenerated:datetime, ContainerAppName:string, ' +
    'EnvironmentName:string, RevisionName:string, Log:string, Reason:string, Type:string, ' +
    `_ResourceId:string, ${billing})`,
  ...Object.fromEntries(['AppRequests', 'AppDependencies', 'AppEvents', 'AppTraces', 'AppExceptions', 'AppMetrics',
    'AppPerformanceCounters'].map(name => [name, workspaceAppInsights])),
};

function loadKusto() {
  const root = path.resolve(__dirname, '..');
  const searchPaths = [path.join(root, '.tools', 'node_modules'), ...(module.paths || [])];
  let dir;
  try {
    dir = path.dirname(require.resolve('@kusto/language-service-next/package.json', { paths: searchPaths }));
  } catch {
    return null;
  }
  // Bridge.NET output: defines the globals Bridge, System and Kusto.
  require(path.join(dir, 'bridge.min.js'));
  require(path.join(dir, 'Kusto.Language.Bridge.min.js'));
  return global.Kusto.Language;
}

function lineAndColumn(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

function main(files) {
  if (files.length === 0) {
    console.error('usage: node scripts/kql-check.js FILE.kql...');
    return 2;
  }
  const K = loadKusto();
  if (!K) {
    console.error('@kusto/language-service-next is not installed: run scripts/install-tools.sh');
    return 3;
  }
  const symbols = Object.entries(tables).map(
    ([name, schema]) => new K.Symbols.TableSymbol.$ctor7(name, schema, null));
  const globals = K.GlobalState.Default.WithDatabase(new K.Symbols.DatabaseSymbol.$ctor2('telemetry', null, symbols));

  let errors = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const diagnostics = K.KustoCode.ParseAndAnalyze(text, globals).GetDiagnostics();
    let fileErrors = 0;
    for (let i = 0; i < diagnostics.Count; i++) {
      const d = diagnostics.getItem(i);
      if (d.Severity !== 'Error') continue;
      fileErrors++;
      console.log(`${file}:${lineAndColumn(text, d.Start)}: ${d.Code} ${d.Message}`);
    }
    if (fileErrors === 0) console.log(`${file}: ok`);
    errors += fileErrors;
  }
  return errors === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
