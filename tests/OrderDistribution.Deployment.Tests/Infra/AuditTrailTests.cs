using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// No key in the deployment, a record of who touched the data, deletes that can be undone: asserted on what the
/// oldest and the newest tested Bicep release compile infra/main.bicep into (the ARM JSON, and its snapshot).
/// </summary>
public class AuditTrailTests
{
    public static TheoryData<string> OldestAndNewest() =>
        [.. BicepCompiler.Releases.Take(1).Concat(BicepCompiler.Releases.TakeLast(1)).Distinct()];

    [RequiresBicepTheory]
    [MemberData(nameof(OldestAndNewest))]
    public void The_compiled_template_reads_no_key(string release)
    {
        var (template, _) = BicepCompiler.BuildWith(BicepCompiler.PathOfRelease(release), BicepCompiler.MainFile);

        // listKeys() of any resource, and the one setting that would carry a workspace key.
        Assert.DoesNotContain("listKeys", template.ToJsonString(), StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("\"sharedKey\"", template.ToJsonString(), StringComparison.Ordinal);
    }

    [RequiresBicepTheory]
    [MemberData(nameof(OldestAndNewest))]
    public void Container_app_logs_reach_the_workspace_through_azure_monitor_with_its_local_auth_off(string release)
    {
        var deployment = InfraSnapshot.OnRelease(release);
        var workspace = Assert.Single(deployment.OfType("Microsoft.OperationalInsights/workspaces"));
        var environment = Assert.Single(deployment.OfType("Microsoft.App/managedEnvironments"));

        Assert.True(workspace["properties"]!["features"]?["disableLocalAuth"]?.GetValue<bool>(),
            "the workspace takes its shared keys");
        Assert.Equal("""{"destination":"azure-monitor"}""",
            environment["properties"]!["appLogsConfiguration"]!.ToJsonString());
        Assert.Equal(["ContainerAppConsoleLogs", "ContainerAppSystemLogs"],
            Categories(LogsOf(deployment, environment, workspace)));
    }

    [RequiresBicepTheory]
    [MemberData(nameof(OldestAndNewest))]
    public void Service_bus_the_blob_service_and_the_registry_record_who_touched_them_in_the_workspace(string release)
    {
        var deployment = InfraSnapshot.OnRelease(release);
        var workspace = Assert.Single(deployment.OfType("Microsoft.OperationalInsights/workspaces"));

        Assert.Equal(["audit"], Categories(LogsOf(deployment,
            Assert.Single(deployment.OfType("Microsoft.ServiceBus/namespaces")), workspace)));
        Assert.Equal(["audit"], Categories(LogsOf(deployment,
            Assert.Single(deployment.OfType("Microsoft.ContainerRegistry/registries")), workspace)));
        Assert.Equal(["StorageDelete", "StorageRead", "StorageWrite"], Categories(LogsOf(deployment,
            Assert.Single(deployment.OfType("Microsoft.Storage/storageAccounts/blobServices")), workspace)));
    }

    [RequiresBicepTheory]
    [MemberData(nameof(OldestAndNewest))]
    public void Deleted_blobs_and_containers_can_be_restored_for_the_retention_days(string release)
    {
        (string, object)[] longer = [("softDeleteRetentionDays", 30)];
        foreach (var (parameters, days) in new[] { (Array.Empty<(string, object)>(), 7), (longer, 30) })
        {
            var blobService = Assert.Single(
                InfraSnapshot.OnRelease(release, parameters).OfType("Microsoft.Storage/storageAccounts/blobServices"));

            foreach (var policy in new[] { "deleteRetentionPolicy", "containerDeleteRetentionPolicy" })
            {
                Assert.Equal($$"""{"enabled":true,"days":{{days}}}""",
                    blobService["properties"]![policy]!.ToJsonString());
            }
        }
    }

    [RequiresBicepTheory]
    [MemberData(nameof(OldestAndNewest))]
    public void Service_bus_refuses_tls_older_than_1_2(string release)
    {
        var deployment = InfraSnapshot.OnRelease(release);

        foreach (var tier in new[] { deployment, InfraSnapshot.OnRelease(release, ("serviceBusSku", "Premium")) })
        {
            var serviceBus = Assert.Single(tier.OfType("Microsoft.ServiceBus/namespaces"));
            Assert.Equal("1.2", serviceBus["properties"]!["minimumTlsVersion"]!.GetValue<string>());
        }
    }

    /// <summary>
    /// The logs the one diagnostic setting on <paramref name="resource"/> sends, into the resource-specific tables of
    /// <paramref name="workspace"/>.
    /// </summary>
    private static JsonArray LogsOf(InfraSnapshot deployment, JsonObject resource, JsonObject workspace)
    {
        var scope = resource["id"]!.GetValue<string>() + "/providers/Microsoft.Insights/diagnosticSettings/";
        var setting = Assert.Single(deployment.OfType("Microsoft.Insights/diagnosticSettings"),
            s => s["id"]!.GetValue<string>().StartsWith(scope, StringComparison.OrdinalIgnoreCase));
        Assert.Equal(workspace["id"]!.GetValue<string>(), setting["properties"]!["workspaceId"]!.GetValue<string>());
        Assert.Equal("Dedicated", setting["properties"]!["logAnalyticsDestinationType"]!.GetValue<string>());
        return setting["properties"]!["logs"]!.AsArray();
    }

    /// <summary>The enabled categories (or category groups) of a diagnostic setting's logs, sorted.</summary>
    private static List<string> Categories(JsonArray logs) =>
        [.. logs.Select(l => l!.AsObject())
            .Where(l => l["enabled"]!.GetValue<bool>())
            .Select(l => (l["category"] ?? l["categoryGroup"])!.GetValue<string>())
            .Order(StringComparer.Ordinal)];
}
