namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The burst workbook (infra/workbook/bursts.workbook.json): deployed with the real resource ids, its queries parse
/// and show what a burst is measured by.
/// </summary>
public class WorkbookTests
{
    [RequiresBicepFact]
    public void Azd_up_deploys_the_burst_workbook_beside_application_insights_with_the_real_resource_ids()
    {
        var snapshot = InfraSnapshot.Default;
        var workbook = Assert.Single(snapshot.OfType("Microsoft.Insights/workbooks"));
        Assert.Equal("shared", workbook["kind"]!.GetValue<string>());
        var appInsights = Assert.Single(snapshot.OfType("Microsoft.Insights/components"))["id"]!.GetValue<string>();
        var serviceBus = Assert.Single(snapshot.OfType("Microsoft.ServiceBus/namespaces"))["id"]!.GetValue<string>();
        Assert.Equal(appInsights, workbook["properties"]!["sourceId"]!.GetValue<string>());

        // The deployed content is the workbook file with both placeholders replaced by those resource ids.
        var file = Repo.Read(Workbook.File);
        var expected = file.Replace("__APP_INSIGHTS_ID__", appInsights, StringComparison.Ordinal)
            .Replace("__SERVICE_BUS_ID__", serviceBus, StringComparison.Ordinal);
        Assert.NotEqual(file, expected);
        Assert.Equal(expected, workbook["properties"]!["serializedData"]!.GetValue<string>());
        Assert.Equal("Notebook/1.0", System.Text.Json.Nodes.JsonNode.Parse(file)!["version"]!.GetValue<string>());
    }

    [Fact]
    public void The_burst_workbooks_queries_parse_against_the_telemetry_schema()
    {
        RequiredTools.KqlChecker();
        var folder = Directory.CreateTempSubdirectory("workbook-kql-").FullName;
        try
        {
            var files = Workbook.Queries().Select(q =>
            {
                var file = Path.Combine(folder, q.Key + ".kql");
                File.WriteAllText(file, q.Value);
                return file;
            }).ToArray();
            Assert.Equal(3, files.Length);

            var (exitCode, output) = Repo.Run("node", ["scripts/kql-check.js", .. files]);
            Assert.True(exitCode == 0, output);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void The_burst_workbook_shows_cycle_time_throughput_per_5_s_retries_drops_and_dead_letters_per_model()
    {
        var queries = Workbook.Queries();

        // Cycle time per burst: to the last order a receiver stored (as cycle-time.kql), from the scheduled instant
        // when given.
        Assert.Contains($"| where name == \"{OrderDistribution.Receiver.StoredOrdersTelemetry.EventName}\"",
            queries["bursts"], StringComparison.Ordinal);
        Assert.Contains("lastStored = maxif(timestamp, origin == \"store\")", queries["bursts"],
            StringComparison.Ordinal);
        Assert.Contains("cycleSeconds = datetime_diff(\"millisecond\", lastStored, start)", queries["bursts"],
            StringComparison.Ordinal);
        Assert.Contains("let scheduledAt = todatetime(\"{ScheduledAt}\");", queries["bursts"],
            StringComparison.Ordinal);
        Assert.Contains("bin(timestamp, 5s)", queries["throughput"], StringComparison.Ordinal);
        Assert.Contains("customDimensions.RetryCount", queries["retries-drops"], StringComparison.Ordinal);
        Assert.Contains("format startswith \"Dropped entry\"", queries["retries-drops"], StringComparison.Ordinal);

        // Per model: the routes the apps serve name the model.
        var routes = new OrderDistribution.Messaging.Inbound.OrderRoutes("q-order-express", "q-order-express-input");
        foreach (var (route, model) in new[] { (routes.Bulk, "pubsub-bulk"), (routes.Single, "pubsub-single"),
            (routes.Binding, "bindings") })
        {
            var suffix = route[route.LastIndexOf('-')..];
            Assert.Contains($"name endswith \"{suffix}\", \"{model}\"", queries["bursts"], StringComparison.Ordinal);
            Assert.Contains($"name endswith \"{suffix}\", \"{model}\"", queries["throughput"],
                StringComparison.Ordinal);
        }

        Assert.Contains("isnotempty(tostring(customDimensions.Model)), tostring(customDimensions.Model)",
            queries["retries-drops"], StringComparison.Ordinal);

        // The orders waiting and the dead letters: Service Bus's own metrics, per queue.
        foreach (var (item, name) in new[] { ("waiting", "ActiveMessages"), ("dead-letters", "DeadletteredMessages") })
        {
            var metric = Workbook.Item(item)["content"]!;
            Assert.Equal(["__SERVICE_BUS_ID__"], metric["resourceIds"]!.AsArray().Select(n => n!.GetValue<string>()));
            var series = Assert.Single(metric["metrics"]!.AsArray())!;
            Assert.Equal($"microsoft.servicebus/namespaces--{name}", series["metric"]!.GetValue<string>());
            Assert.Equal(["EntityName"], series["splitBy"]!.AsArray().Select(n => n!.GetValue<string>()));
        }
    }
}
