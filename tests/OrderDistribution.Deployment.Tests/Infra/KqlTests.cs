using System.Text.RegularExpressions;
using OrderDistribution.Messaging;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The KQL queries (scripts/kql) against the apps' code and settings and a telemetry sample in Application Insights'
/// shape: what they filter, what they keep, and that they parse.
/// </summary>
public class KqlTests
{
    private static IEnumerable<string> KqlFiles() =>
        Directory.GetFiles(Repo.PathOf("scripts/kql"), "*.kql").Order(StringComparer.Ordinal);

    [Fact]
    public void The_measurement_queries_are_all_there()
    {
        var names = KqlFiles().Select(Path.GetFileNameWithoutExtension).ToList();
        Assert.Equal(["cycle-time", "lock-lost", "publish-errors", "requests-per-5s", "retry-drop", "telemetry-volume"],
            names);
    }

    [Fact]
    public void Every_query_filters_on_the_three_app_ids()
    {
        var ids = "dynamic([" + string.Join(", ", Contract.AppIds.Select(id => $"\"{id}\"")) + "])";
        foreach (var file in KqlFiles())
        {
            Assert.Contains(ids, File.ReadAllText(file), StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(Contract.DistributorSettings)]
    [InlineData(Contract.ReceiverSettings)]
    public void The_apps_turn_adaptive_sampling_off_so_cycle_time_sees_the_first_and_last_request(string settingsFile)
    {
        Assert.Equal("false", AppSettings.Load(settingsFile)["ApplicationInsights:EnableAdaptiveSampling"]);
        Assert.Contains("EnableAdaptiveSampling false", Repo.Read("scripts/kql/cycle-time.kql"),
            StringComparison.Ordinal);
    }

    [Fact]
    public void Cycle_time_runs_from_the_scheduled_instant_to_the_last_order_a_receiver_stored_not_its_last_answer()
    {
        var query = Repo.Read("scripts/kql/cycle-time.kql");

        // The start: the placeholder scripts/query-kql.sh fills with --scheduled-at, never the first delivery.
        Assert.Contains("\nlet scheduledAt = datetime(null);\n", query, StringComparison.Ordinal);
        Assert.Contains("placeholder='let scheduledAt = datetime(null);'", Repo.Read("scripts/query-kql.sh"),
            StringComparison.Ordinal);
        // The end: the last event the receivers send when a delivery's stores have ended, not the last request,
        // which a delivery of only RETRY or DROP entries ends too (answered 200).
        Assert.Contains($"| where name == \"{OrderDistribution.Receiver.StoredOrdersTelemetry.EventName}\"", query,
            StringComparison.Ordinal);
        Assert.Contains($"toint(customMeasurements.{OrderDistribution.Receiver.StoredOrdersTelemetry.StoredCount})",
            query, StringComparison.Ordinal);
        Assert.Contains("summarize lastStored = max(timestamp), storedOrders = sum(storedCount)\n", query,
            StringComparison.Ordinal);
        Assert.Contains("cycleSeconds = datetime_diff(\"millisecond\", lastStored, scheduledAt)", query,
            StringComparison.Ordinal);
        Assert.DoesNotContain("lastAnswered, scheduledAt)", query, StringComparison.Ordinal);
    }

    [Fact]
    public void The_samples_stored_order_events_are_the_ones_the_receivers_send()
    {
        var events = TelemetrySample.Rows("customEvents");
        Assert.NotEmpty(events);
        Assert.All(events, row =>
        {
            Assert.Equal(OrderDistribution.Receiver.StoredOrdersTelemetry.EventName, row["name"]!.GetValue<string>());
            Assert.StartsWith("receiver-", row["cloud_RoleName"]!.GetValue<string>(), StringComparison.Ordinal);
            var stored = row["customMeasurements"]![OrderDistribution.Receiver.StoredOrdersTelemetry.StoredCount]!;
            Assert.True(stored.GetValue<double>() > 0);
            Assert.True(MessagingModels.TryParse(
                TelemetrySample.Dimension(row, OrderDistribution.Receiver.StoredOrdersTelemetry.Model), out _));
        });
    }

    [Fact]
    public void The_hand_written_sample_says_it_is_hand_written()
    {
        Assert.Contains("hand-written", TelemetrySample.HandWritten, StringComparison.Ordinal);
        var about = System.Text.Json.Nodes.JsonNode.Parse(
            Repo.Read(TelemetrySample.HandWritten))!["about"]!.GetValue<string>();
        Assert.StartsWith("HAND-WRITTEN, not recorded", about, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Contract.DistributorSettings)]
    [InlineData(Contract.ReceiverSettings)]
    public void The_per_request_retry_and_drop_counts_reach_application_insights(string settingsFile)
    {
        var settings = AppSettings.Load(settingsFile);

        // retry-drop.kql and the workbook read the lines of this category that close an outage of deliveries answered
        // RETRY (Information) and name each dropped entry (Warning); RequestRulesTests checks the category.
        Assert.True(ApplicationInsightsLevel(settings, AppTypeNamed("RequestRun").FullName!) <= Level.Information);
        // Everything else stays at Warning, so a burst does not flood Application Insights.
        Assert.Equal(Level.Warning, ApplicationInsightsLevel(settings, "Microsoft.AspNetCore.Hosting.Diagnostics"));
        Assert.Contains("customDimensions.RetryCount", Repo.Read("scripts/kql/retry-drop.kql"),
            StringComparison.Ordinal);
    }

    [Fact]
    public void Every_query_and_workbook_query_keeps_rows_of_the_apps_recorded_telemetry()
    {
        var queries = KqlFiles().Select(f => KeyValuePair.Create(Path.GetFileName(f), File.ReadAllText(f)))
            .Concat(Workbook.Queries().Select(q => KeyValuePair.Create($"workbook {q.Key}", q.Value)));
        foreach (var (name, query) in queries)
        {
            var pipelines = TelemetrySample.Pipelines(query).ToList();
            Assert.True(pipelines.Count > 0, $"{name} reads no table of the sample");
            Assert.All(pipelines,
                p => Assert.True(p.Kept > 0, $"{name}: its filters on {p.Table} keep no row of the sample"));
        }
    }

    [Fact]
    public void Every_trace_of_the_sample_is_a_line_the_apps_log_under_the_category_they_log_it()
    {
        var sources = Directory.GetFiles(Repo.PathOf("src"), "*.cs", SearchOption.AllDirectories)
            .Where(f =>
                !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            // A template split over lines ("..." +\n "...") is read as the one string it compiles to.
            .Select(f => Regex.Replace(File.ReadAllText(f), "\"\\s*\\+\\s*\"", ""))
            .ToList();
        foreach (var row in TelemetrySample.Rows("traces"))
        {
            var template = TelemetrySample.Dimension(row, "OriginalFormat");
            Assert.Contains(sources, source => source.Contains($"\"{template}\")]", StringComparison.Ordinal));

            // The logging class, by its full name as the apps' assemblies have it today.
            var category = TelemetrySample.Dimension(row, "CategoryName");
            Assert.Equal(AppTypeNamed(category[(category.LastIndexOf('.') + 1)..]).FullName, category);

            // The message is the template with the row's own dimensions.
            var message = Regex.Replace(template, @"\{(\w+)\}", m => TelemetrySample.Dimension(row, m.Groups[1].Value));
            Assert.Equal(message, row["message"]!.GetValue<string>());
        }
    }

    [Fact]
    public void Publish_errors_reads_every_failed_publish_the_apps_can_name_and_no_other_failure()
    {
        var query = Repo.Read("scripts/kql/publish-errors.kql");
        var filter = new Regex(
            Regex.Match(query, @"where failure matches regex @""(?<regex>[^""]+)""").Groups["regex"].Value);
        var destination = new Regex(
            Regex.Match(query, @"destination = extract\(@""(?<regex>[^""]+)"", 1, failure\)").Groups["regex"].Value);

        // Every failure text the publishing code writes (interpolated strings ending in "failed: {...}") matches.
        var written = Directory.GetFiles(Repo.PathOf("src"), "*.cs", SearchOption.AllDirectories)
            .Where(f => f.Contains("Outbound", StringComparison.Ordinal)
                || f.Contains("Distributor", StringComparison.Ordinal))
            .SelectMany(f =>
                Regex.Matches(File.ReadAllText(f), @"\$""(?<text>[^""]* failed: \{[^""]*)""")
                .Select(m => m.Groups["text"].Value))
            .ToList();
        Assert.True(written.Count >= 3, string.Join('\n', written));
        foreach (var text in written)
        {
            var example = Regex.Replace(text, @"\{[^}]+\}", "17");
            Assert.Matches(filter, example);
            Assert.Equal("17", destination.Match(example).Groups[1].Value);
        }

        // In the sample: the distributor's three failed publishes, by destination; the receiver's dropped entry is not
        // one.
        var found = TelemetrySample.Rows("traces")
            .Select(row => TelemetrySample.Dimension(row, "FirstFailure"))
            .Where(failure => filter.IsMatch(failure))
            .Select(failure => destination.Match(failure).Groups[1].Value)
            .Order(StringComparer.Ordinal);
        Assert.Equal(["q-order-express", "q-order-standard", "q-order-standard-output"], found);
    }

    [Fact]
    public void Publish_errors_counts_failed_grpc_calls_to_the_sidecar_not_the_apps_own_routes()
    {
        var failedCalls = TelemetrySample.Pipelines(Repo.Read("scripts/kql/publish-errors.kql"))
            .Single(p => p.Table == "dependencies");
        Assert.Equal(1, failedCalls.Kept);
        Assert.Contains("| where name contains \"/dapr.proto.runtime.v1.Dapr/\"",
            Repo.Read("scripts/kql/publish-errors.kql"), StringComparison.Ordinal);
    }

    [Fact]
    public void Every_kql_file_parses_against_the_telemetry_schema()
    {
        RequiredTools.KqlChecker();
        var files = KqlFiles().Select(f => Path.GetRelativePath(Repo.Root, f)).ToArray();
        var (exitCode, output) = Repo.Run("node", ["scripts/kql-check.js", .. files]);
        Assert.True(exitCode == 0, output);
    }

    [Fact]
    public void The_kql_checker_reports_an_unknown_column()
    {
        RequiredTools.KqlChecker();
        var bad = Path.Combine(Path.GetTempPath(), $"bad-{Guid.NewGuid():N}.kql");
        File.WriteAllText(bad, "requests\n| where cloudRoleName == \"distributor\"\n");
        try
        {
            var (exitCode, output) = Repo.Run("node", "scripts/kql-check.js", bad);
            Assert.Equal(1, exitCode);
            Assert.Contains("KS142", output, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(bad);
        }
    }

    /// <summary>The one type of the apps' assemblies with this name.</summary>
    private static Type AppTypeNamed(string name) =>
        Assert.Single(
            new[] { typeof(OrderDistribution.Messaging.Inbound.OrderRoutes).Assembly,
            typeof(OrderDistribution.Receiver.BlobOrderStore).Assembly }
            .SelectMany(a => a.GetTypes()), t => t.Name == name);

    private enum Level
    {
        Trace,
        Debug,
        Information,
        Warning,
        Error,
        Critical,
        None,
    }

    /// <summary>The level the Application Insights logger provider applies to a category, as .NET resolves it:
    /// the provider's longest matching category prefix, then its Default, then the general LogLevel section.</summary>
    private static Level ApplicationInsightsLevel(AppSettings settings, string category)
    {
        foreach (var section in new[] { "Logging:ApplicationInsights:LogLevel", "Logging:LogLevel" })
        {
            var parts = category.Split('.');
            for (var length = parts.Length; length > 0; length--)
            {
                if (settings[$"{section}:{string.Join('.', parts[..length])}"] is { } level)
                {
                    return Enum.Parse<Level>(level);
                }
            }

            if (settings[$"{section}:Default"] is { } fallback)
            {
                return Enum.Parse<Level>(fallback);
            }
        }

        return Level.Information;
    }
}
