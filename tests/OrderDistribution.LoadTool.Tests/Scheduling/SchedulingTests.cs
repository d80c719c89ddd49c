using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Scheduling;

/// <summary>
/// Scheduling through a fake of the sidecar's HTTP API that records every request: each order published once in
/// each model, failures counted, the record for watch, and a trio running another model refused.
/// </summary>
public sealed class SchedulingTests(AzuriteFixture storage) : SchedulingTest(storage)
{
    /// <summary>
    /// The distributor's metadata in the pubsub model: a subscription to q-order-ingress on order-pubsub.
    /// </summary>
    internal const string PubsubDistributor = """
        {"id":"distributor","runtimeVersion":"1.14.0","enabledFeatures":[],"actors":[],
         "components":[{"name":"order-pubsub","type":"pubsub.redis","version":"v1",
                        "capabilities":["SUBSCRIBE_WILDCARDS"]}],
         "extended":{"appCommand":"dotnet run"},
         "subscriptions":[{"pubsubname":"order-pubsub","topic":"q-order-ingress",
                           "rules":[{"path":"/q-order-ingress-bulk"}],"type":"PROGRAMMATIC"}],
         "httpEndpoints":[],"appConnectionProperties":{"port":5001,"protocol":"http","channelAddress":"127.0.0.1"}}
        """;

    /// <summary>
    /// The distributor's metadata in the bindings model: input binding q-order-ingress-input, no subscriptions.
    /// </summary>
    private const string BindingsDistributor = """
        {"id":"distributor","runtimeVersion":"1.14.0","enabledFeatures":[],"actors":[],
         "components":[{"name":"q-order-ingress-input","type":"bindings.rabbitmq","version":"v1",
                        "capabilities":["INPUT_BINDING","OUTPUT_BINDING"]},
                       {"name":"q-order-express-output","type":"bindings.rabbitmq","version":"v1",
                        "capabilities":["INPUT_BINDING","OUTPUT_BINDING"]}],
         "subscriptions":[],"httpEndpoints":[],"appConnectionProperties":{"port":5001,"protocol":"http"}}
        """;

    [Fact]
    public async Task Pubsub_scheduling_bulk_publishes_every_order_once_with_raw_payload_in_requests_under_the_budget()
    {
        Sidecar.MaxBulkRequestBytes = 32_768;
        var orders = await GenerateAsync(2_000);

        var exit = await new Cli()
            .RunAsync(["schedule", "--model", "pubsub-bulk", "--max-bulk-bytes", "32768", .. Common()]);

        Assert.Equal(0, exit);
        var requests = Sidecar.BulkPublishes(OrderTopology.IngressQueue).ToList();
        Assert.True(requests.Count > 1);
        Assert.All(requests, r => Assert.True(r.Body.Length <= 32_768, $"a request of {r.Body.Length} bytes"));
        Assert.All(requests, r => Assert.Equal("true", r.Query["metadata.rawPayload"]));
        var published = requests.SelectMany(r => r.Json.EnumerateArray())
            .Select(e => OrderJson.Deserialize(e.GetProperty("event")).OrderId);
        Assert.Equal(orders.Select(o => o.OrderId).Order(), published.Order());
    }

    [Fact]
    public async Task Bindings_scheduling_hands_every_order_once_to_the_ingress_output_binding()
    {
        var orders = await GenerateAsync(300);

        var exit = await new Cli().RunAsync(["schedule", "--model", "bindings", .. Common()]);

        Assert.Equal(0, exit);
        Assert.All(Sidecar.Requests, r => Assert.Equal($"/v1.0/bindings/{OrderTopology.IngressOutputBinding}", r.Path));
        Assert.Equal(orders.Select(o => o.OrderId).Order(),
            Sidecar.Requests.Select(r => OrderJson.Deserialize(r.Json.GetProperty("data")).OrderId).Order());
    }

    /// <summary>
    /// Scheduled messages carry a valid trace context or none, never the all-zero one (W3C: invalid). Which of the two
    /// depends on whether anything in the process traces HTTP calls (Application Insights does once an app of the trio
    /// has run here), so the test holds for both.
    /// </summary>
    [Theory]
    [InlineData("1.14")]
    [InlineData("1.17")]
    public async Task Bindings_scheduling_puts_no_transport_header_and_no_invalid_trace_context_on_a_message(
        string runtime)
    {
        Sidecar.Runtime = DaprRuntimeProfile.All.Single(r => r.Version == runtime);
        await GenerateAsync(20);

        var exit = await new Cli().RunAsync(["schedule", "--model", "bindings", .. Common()]);

        Assert.Equal(0, exit);
        Assert.Equal(20, Sidecar.BindingMessages.Count);
        Assert.All(Sidecar.BindingMessages, m => Assert.Empty(BrokerMessageHeaders.Forbidden(m.Metadata)));
    }

    [Fact]
    public async Task Orders_the_sidecar_fails_make_schedule_exit_1_and_say_how_many()
    {
        Sidecar.FailEntry = e => e.GetProperty("OrderId").GetInt64() % 10 == 0;
        await GenerateAsync(100);
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", .. Common()]);

        Assert.Equal(1, exit);
        // How many, how many went in, and the first failure's cause as the sidecar gave it.
        Assert.Contains("10 of 100 orders were not scheduled (90 went in", cli.Output, StringComparison.Ordinal);
        Assert.Contains("chosen to fail", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Orders_the_sidecar_refuses_for_good_are_counted_with_the_cause_it_gave()
    {
        // Smaller than any one order's request: the sidecar refuses each entry as too large, for good.
        Sidecar.MaxBulkRequestBytes = 64;
        await GenerateAsync(10);
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", .. Common()]);

        Assert.Equal(1, exit);
        Assert.Contains("10 of 10 orders were not scheduled (0 went in", cli.Output, StringComparison.Ordinal);
        Assert.Contains("too large", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("gave no reason", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Schedule_records_when_it_started_for_watch()
    {
        await GenerateAsync(10);
        var before = DateTimeOffset.UtcNow;

        await new Cli().RunAsync(["schedule", .. Common()]);

        var record = await ScheduleRecord.ReadAsync(Path.Combine(Folder, "schedule.json"), default);
        Assert.InRange(record.ScheduledAt, before, DateTimeOffset.UtcNow);
        Assert.Equal(10, record.Count);
    }

    [Theory]
    [InlineData("pub/sub", "bindings", "Run with --model pubsub-bulk or pubsub-single")]
    [InlineData("bindings", "pubsub-bulk", "Run with --model bindings")]
    [InlineData("bindings", "pubsub-single", "Run with --model bindings")]
    public async Task A_trio_running_another_model_than_model_stops_schedule_before_anything_is_published(
        string running, string asked, string advice)
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = running == "pub/sub" ? PubsubDistributor : BindingsDistributor;
        await GenerateAsync(10);
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["schedule", "--model", asked, "--sidecar", sidecar.Address.ToString(), "--storage",
            Storage.Azurite.ConnectionString,
            "--orders", Path.Combine(Folder, "orders.json"), "--state", Path.Combine(Folder, "schedule.json")]);

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Empty(sidecar.Requests);
        var lines = cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.Contains($"The trio runs the {running} model", lines[0], StringComparison.Ordinal);
        Assert.Contains(advice, lines[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_sidecar_whose_app_id_holds_a_line_break_is_named_in_one_line_and_refused()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = """{"id":"distributor\nStored 10/10","components":[],"subscriptions":[]}""";
        await GenerateAsync(10);
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["schedule", "--sidecar", sidecar.Address.ToString(), "--storage", Storage.Azurite.ConnectionString,
            "--orders", Path.Combine(Folder, "orders.json"), "--state", Path.Combine(Folder, "schedule.json")]);

        Assert.Equal(ExitCodes.BadInput, exit);
        var lines = cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.Contains(@"(distributor\nStored 10/10) neither subscribes", lines[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_trio_running_the_asked_model_is_scheduled()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = BindingsDistributor;
        await GenerateAsync(10);

        var exit = await new Cli()
            .RunAsync(
            ["schedule", "--model", "bindings", "--sidecar", sidecar.Address.ToString(), "--storage",
            Storage.Azurite.ConnectionString,
            "--orders", Path.Combine(Folder, "orders.json"), "--state", Path.Combine(Folder, "schedule.json")]);

        Assert.Equal(0, exit);
        Assert.Equal(10, sidecar.Requests.Count(r => r.Path == $"/v1.0/bindings/{OrderTopology.IngressOutputBinding}"));
    }

    [Fact]
    public async Task Schedule_with_no_sidecar_prints_two_lines_naming_the_endpoint_and_exits_3()
    {
        await GenerateAsync(10);
        var port = Azurite.FreePort();

        var (exit, lines) = await Cli.RunProgramAsync("schedule", "--sidecar", $"http://127.0.0.1:{port}", "--storage",
            Storage.Azurite.ConnectionString,
            "--orders", Path.Combine(Folder, "orders.json"), "--state", Path.Combine(Folder, "schedule.json"));

        Assert.Equal(ExitCodes.Unreachable, exit);
        Assert.InRange(lines.Count, 1, 2);
        Assert.Contains($"127.0.0.1:{port}", lines[0], StringComparison.Ordinal);
        Assert.Contains("scripts/run-local.sh", string.Join("\n", lines), StringComparison.Ordinal);
        Assert.DoesNotContain(lines, l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal));
    }
}
