using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.Queues;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh around the load tool: the sidecar component it renders for it, and the scheduled instant
/// read back from the load tool's record.
/// </summary>
public sealed class AzureBurstLoadToolTests
{
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_sidecar_publishes_to_the_ingress_queue_as_the_apps_pubsub_signed_in_without_secrets()
    {
        var component = RenderedSidecar();
        Assert.Equal(
            AppSettings.Load("src/OrderDistribution.Distributor/appsettings.json").Required("Messaging:PubSubName"),
            component.Name);
        Assert.Equal("pubsub.azure.servicebus.queues", component.Type);
        Assert.Equal("sb-test.servicebus.windows.net", component["namespaceName"]);
        Assert.Equal("true", component["disableEntityManagement"]);
        Assert.Null(component["connectionString"]);
        Assert.Equal(["order-load"], component.Scopes);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_sidecar_leaves_the_byte_budget_to_each_bulk_publish_request()
    {
        // A component-level maxBulkPubBytes is ignored; the load tool sends --max-bulk-bytes with each request.
        Assert.Null(RenderedSidecar()["maxBulkPubBytes"]);
        Assert.Contains("--max-bulk-bytes \"$MAX_BULK_PUBLISH_BYTES\"", Repo.Read("scripts/azure-burst.sh"),
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reads_the_scheduled_instant_from_the_load_tools_schedule_record()
    {
        var script = Repo.Read("scripts/azure-burst.sh");
        // The load tool writes its record where the script reads it.
        Assert.Contains("--state \"$schedule_record\"", script, StringComparison.Ordinal);
        Assert.Contains("--scheduled-at $scheduled_at", script, StringComparison.Ordinal);

        // The record as System.Text.Json writes it (ScheduleRecord): the instant comes out as UTC with a Z.
        using var azure = new FakeAzure().WithLoadTool();
        var record = azure.WriteFile("record.json", System.Text.Json.JsonSerializer.Serialize(
            new
            {
                ScheduledAt = DateTimeOffset.FromUnixTimeSeconds(1_795_000_000),
                Model = "pubsub-bulk",
                Count = 10_000,
                OrdersFile = "orders.json",
                ClockSkewSeconds = 0.4
            }));
        // Read as the script reads it: order-load through scripts/lib/load-tool.sh.
        var (exitCode, output) = azure.Run("bash", "-c",
            ". scripts/lib/load-tool.sh; ROOT=\"$PWD\" order_load azure-burst read --state \"$1\"", "bash", record);

        Assert.True(exitCode == 0, output);
        Assert.Equal(
            DateTimeOffset.FromUnixTimeSeconds(1_795_000_000).UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ",
            System.Globalization.CultureInfo.InvariantCulture), output.Trim().Split(' ')[1]);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_has_the_load_tool_read_the_deployed_namespaces_queues_while_it_watches()
    {
        using var azure = AzureBurstRun.Deployed();

        var (exitCode, output) = AzureBurstRun.Burst(azure);

        Assert.True(exitCode == 0, output);
        var call = File.ReadAllText(AzureBurstRun.LoadToolCall(azure));
        var given = Regex.Match(call, "--servicebus-namespace-id (\\S+)");
        Assert.True(given.Success, call);
        // The id the load tool takes, of the namespace azd deployed into the subscription every az call names.
        var id = ServiceBusQueueDepths.NamespaceOf(given.Groups[1].Value);
        Assert.NotNull(id);
        Assert.Equal(FakeAzure.Subscription, id.SubscriptionId);
        Assert.Equal("rg-fake", id.ResourceGroupName);
        Assert.Equal("sb-fake", id.Name);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_ends_with_the_environments_bursts_compared_beside_their_results()
    {
        using var azure = AzureBurstRun.Deployed();

        var (exitCode, output) = AzureBurstRun.Burst(azure);

        Assert.True(exitCode == 0, output);
        // The report order-load writes from the environment's results, the burst in its table.
        var report = Path.Combine(azure.Folder, "azure-fake", "report.md");
        Assert.True(File.Exists(report), output);
        Assert.Contains(File.ReadAllLines(report),
            line => line.StartsWith("| pubsub-bulk | 1 |", StringComparison.Ordinal));
        Assert.True(File.Exists(Path.ChangeExtension(report, ".png")), output);
        Assert.DoesNotContain("could not compare", output, StringComparison.Ordinal);
    }

    /// <summary>The one component azure-burst.sh renders for the load tool's sidecar.</summary>
    private static DaprComponent RenderedSidecar()
    {
        var (exitCode, output) = Repo.Run("env", "SERVICEBUS_NAMESPACE_FQDN=sb-test.servicebus.windows.net",
            "STORAGE_BLOB_ENDPOINT=https://sttest.blob.core.windows.net/", "bash", "scripts/azure-burst.sh",
            "--render-only");
        Assert.True(exitCode == 0, output);
        return Assert.Single(DaprComponent.LoadFolder(".dapr/azure-load"));
    }
}
