using Microsoft.AspNetCore.Builder;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Scheduling;

/// <summary>Scheduling through a fake of the sidecar's HTTP API that records every request.</summary>
public sealed class SchedulingTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IAsyncLifetime
{
    /// <summary>The distributor's metadata in the pubsub model: a subscription to q-order-ingress on order-pubsub.</summary>
    private const string PubsubDistributor = """
        {"id":"distributor","runtimeVersion":"1.14.0","enabledFeatures":[],"actors":[],
         "components":[{"name":"order-pubsub","type":"pubsub.redis","version":"v1","capabilities":["SUBSCRIBE_WILDCARDS"]}],
         "extended":{"appCommand":"dotnet run"},
         "subscriptions":[{"pubsubname":"order-pubsub","topic":"q-order-ingress","rules":[{"path":"/q-order-ingress-bulk"}],"type":"PROGRAMMATIC"}],
         "httpEndpoints":[],"appConnectionProperties":{"port":5001,"protocol":"http","channelAddress":"127.0.0.1"}}
        """;

    /// <summary>The distributor's metadata in the bindings model: input binding q-order-ingress-input, no subscriptions.</summary>
    private const string BindingsDistributor = """
        {"id":"distributor","runtimeVersion":"1.14.0","enabledFeatures":[],"actors":[],
         "components":[{"name":"q-order-ingress-input","type":"bindings.rabbitmq","version":"v1","capabilities":["INPUT_BINDING","OUTPUT_BINDING"]},
                       {"name":"q-order-express-output","type":"bindings.rabbitmq","version":"v1","capabilities":["INPUT_BINDING","OUTPUT_BINDING"]}],
         "subscriptions":[],"httpEndpoints":[],"appConnectionProperties":{"port":5001,"protocol":"http"}}
        """;

    private EmulatedSidecar _sidecar = null!;
    private readonly string _folder = Path.Combine(Path.GetTempPath(), $"order-load-{Guid.NewGuid():N}");

    public async ValueTask InitializeAsync() => _sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync() => await _sidecar.DisposeAsync();

    [Fact]
    public async Task Pubsub_scheduling_bulk_publishes_every_order_once_with_raw_payload_in_requests_under_the_budget()
    {
        _sidecar.MaxBulkRequestBytes = 32_768;
        var orders = await GenerateAsync(2_000);

        var exit = await new Cli().RunAsync(["schedule", "--model", "pubsub-bulk", "--max-bulk-bytes", "32768", .. Common()]);

        Assert.Equal(0, exit);
        var requests = _sidecar.BulkPublishes(OrderTopology.IngressQueue).ToList();
        Assert.True(requests.Count > 1);
        Assert.All(requests, r => Assert.True(r.Body.Length <= 32_768, $"a request of {r.Body.Length} bytes"));
        Assert.All(requests, r => Assert.Equal("true", r.Query["metadata.rawPayload"]));
        var published = requests.SelectMany(r => r.Json.EnumerateArray()).Select(e => OrderJson.Deserialize(e.GetProperty("event")).OrderId);
        Assert.Equal(orders.Select(o => o.OrderId).Order(), published.Order());
    }

    [Fact]
    public async Task Bindings_scheduling_hands_every_order_once_to_the_ingress_output_binding()
    {
        var orders = await GenerateAsync(300);

        var exit = await new Cli().RunAsync(["schedule", "--model", "bindings", .. Common()]);

        Assert.Equal(0, exit);
        Assert.All(_sidecar.Requests, r => Assert.Equal($"/v1.0/bindings/{OrderTopology.IngressOutputBinding}", r.Path));
        Assert.Equal(orders.Select(o => o.OrderId).Order(),
            _sidecar.Requests.Select(r => OrderJson.Deserialize(r.Json.GetProperty("data")).OrderId).Order());
    }

    /// <summary>
    /// Scheduled messages carry a valid trace context or none, never the all-zero one (W3C: invalid). Which of the two
    /// depends on whether anything in the process traces HTTP calls (Application Insights does once an app of the trio
    /// has run here), so the test holds for both.
    /// </summary>
    [Theory]
    [InlineData("1.14")]
    [InlineData("1.17")]
    public async Task Bindings_scheduling_puts_no_transport_header_and_no_invalid_trace_context_on_a_message(string runtime)
    {
        _sidecar.Runtime = DaprRuntimeProfile.All.Single(r => r.Version == runtime);
        await GenerateAsync(20);

        var exit = await new Cli().RunAsync(["schedule", "--model", "bindings", .. Common()]);

        Assert.Equal(0, exit);
        Assert.Equal(20, _sidecar.BindingMessages.Count);
        Assert.All(_sidecar.BindingMessages, m => Assert.Empty(BrokerMessageHeaders.Forbidden(m.Metadata)));
    }

    [Fact]
    public async Task Orders_the_sidecar_fails_make_schedule_exit_1_and_say_how_many()
    {
        _sidecar.FailEntry = e => e.GetProperty("OrderId").GetInt64() % 10 == 0;
        await GenerateAsync(100);
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", .. Common()]);

        Assert.Equal(1, exit);
        // How many, how many went in, and the first failure's cause as the sidecar gave it.
        Assert.Contains("10 of 100 orders were not scheduled (90 went in", cli.Output, StringComparison.Ordinal);
        Assert.Contains("chosen to fail", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Azure_scheduling_bulk_publishes_every_order_with_one_scheduled_enqueue_time_whatever_the_model()
    {
        var orders = await GenerateAsync(500);
        await using var azure = await Azurite.StartAsync();
        await new Azure.Storage.Blobs.BlobContainerClient(azure.ConnectionString, WatchExpectation.OutboxFor(Delivery.Express)).CreateIfNotExistsAsync();
        var before = DateTimeOffset.UtcNow;
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", "--target", "azure", "--schedule-delay", "20", "--model", "bindings", "--storage", azure.ConnectionString, .. Files()]);
        var after = DateTimeOffset.UtcNow;

        Assert.Equal(0, exit);
        var record = await ScheduleRecord.ReadAsync(Path.Combine(_folder, "schedule.json"), default);
        // The instant is in storage's time; the skew it was corrected by is recorded and reported in one line.
        Assert.NotNull(record.ClockSkewSeconds);
        Assert.InRange(record.ClockSkewSeconds!.Value, -1, 1);
        Assert.Single(cli.Output.Split('\n'), line => line.StartsWith("Clock: storage's clock is", StringComparison.Ordinal));
        // Twenty seconds from when it measured the clock, after it took the store.
        Assert.InRange(record.ScheduledAt, before.AddSeconds(19), after.AddSeconds(21));
        Assert.Equal(0, record.ScheduledAt.Millisecond);
        var entries = _sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray()).ToList();
        Assert.Equal(orders.Select(o => o.OrderId).Order(), entries.Select(e => OrderJson.Deserialize(e.GetProperty("event")).OrderId).Order());
        Assert.All(entries, e => Assert.Equal(
            record.ScheduledAt,
            DateTimeOffset.Parse(e.GetProperty("metadata").GetProperty("ScheduledEnqueueTimeUtc").GetString()!, System.Globalization.CultureInfo.InvariantCulture)));
        Assert.DoesNotContain(_sidecar.Requests, r => r.Path.StartsWith("/v1.0/bindings/", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Azure_scheduling_puts_the_instant_in_storages_time_when_this_machines_clock_is_off()
    {
        await GenerateAsync(50);
        // Storage whose clock is two minutes ahead of this machine's: its Date header says so.
        var ahead = TimeSpan.FromMinutes(2);
        await using var clockAhead = LoopbackServer.Create();
        clockAhead.MapMethods("/{account}/{container}", ["HEAD", "GET"], (Microsoft.AspNetCore.Http.HttpContext context) =>
        {
            context.Response.Headers.Date = (DateTimeOffset.UtcNow + ahead).ToString("R", System.Globalization.CultureInfo.InvariantCulture);
            context.Response.Headers.ETag = "\"0x1\"";
            context.Response.Headers.LastModified = DateTimeOffset.UtcNow.ToString("R", System.Globalization.CultureInfo.InvariantCulture);
            return Microsoft.AspNetCore.Http.Results.Ok();
        });
        // The lease on the tool's marker blob, as the Blob service grants it: acquired (201), then renewed, its
        // metadata set and released (200).
        clockAhead.MapMethods("/{account}/{container}/{blob}", ["PUT"], (Microsoft.AspNetCore.Http.HttpContext context) =>
        {
            var headers = context.Request.Headers;
            context.Response.Headers.ETag = "\"0x1\"";
            context.Response.Headers.LastModified = DateTimeOffset.UtcNow.ToString("R", System.Globalization.CultureInfo.InvariantCulture);
            context.Response.Headers["x-ms-lease-id"] = headers["x-ms-proposed-lease-id"].ToString() is { Length: > 0 } proposed ? proposed : headers["x-ms-lease-id"].ToString();
            return headers["x-ms-lease-action"] == "acquire" ? Microsoft.AspNetCore.Http.Results.StatusCode(201) : Microsoft.AspNetCore.Http.Results.Ok();
        });
        await clockAhead.StartAsync();
        var connection = $"DefaultEndpointsProtocol=http;AccountName={Azurite.AccountName};AccountKey={Azurite.AccountKey};" +
                         $"BlobEndpoint={LoopbackServer.AddressOf(clockAhead)}{Azurite.AccountName};";
        var before = DateTimeOffset.UtcNow;

        var exit = await new Cli().RunAsync(["schedule", "--target", "azure", "--schedule-delay", "20", "--storage", connection, .. Files()]);

        Assert.Equal(0, exit);
        var record = await ScheduleRecord.ReadAsync(Path.Combine(_folder, "schedule.json"), default);
        Assert.InRange(record.ClockSkewSeconds!.Value, ahead.TotalSeconds - 1, ahead.TotalSeconds + 1);
        Assert.InRange(record.ScheduledAt, before + ahead + TimeSpan.FromSeconds(18), DateTimeOffset.UtcNow + ahead + TimeSpan.FromSeconds(22));
    }

    [Fact]
    public async Task Local_scheduling_sets_no_enqueue_time()
    {
        await GenerateAsync(20);

        await new Cli().RunAsync(["schedule", .. Common()]);

        Assert.All(_sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray()),
            e => Assert.False(e.TryGetProperty("metadata", out var metadata) && metadata.TryGetProperty("ScheduledEnqueueTimeUtc", out _)));
    }

    [Fact]
    public async Task Schedule_records_when_it_started_for_watch()
    {
        await GenerateAsync(10);
        var before = DateTimeOffset.UtcNow;

        await new Cli().RunAsync(["schedule", .. Common()]);

        var record = await ScheduleRecord.ReadAsync(Path.Combine(_folder, "schedule.json"), default);
        Assert.InRange(record.ScheduledAt, before, DateTimeOffset.UtcNow);
        Assert.Equal(10, record.Count);
    }

    [Fact]
    public async Task Poison_goes_out_in_the_burst_as_its_own_bytes_so_not_json_reaches_the_sidecar_as_it_is()
    {
        var set = OrderGenerator.Generate(300, 0.05, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(_folder, "orders.json"), set, default);

        var exit = await new Cli().RunAsync(["schedule", "--model", "pubsub-bulk", .. Common()]);

        Assert.Equal(0, exit);
        var events = _sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray()).Select(e => e.GetProperty("event")).ToList();
        Assert.Equal(300, events.Count);
        var texts = events.Where(e => e.ValueKind == System.Text.Json.JsonValueKind.String).Select(e => e.GetString()!).ToList();
        Assert.Equal(set.Poison.Where(p => p.Kind == PoisonKind.NotJson).Select(p => p.Payload).Order(), texts.Order());
        var objects = events.Where(e => e.ValueKind == System.Text.Json.JsonValueKind.Object).ToList();
        var valid = objects.Select(Valid).OfType<Order>().Select(o => o.OrderId).ToList();
        Assert.Equal(set.Orders.Select(o => o.OrderId).Order(), valid.Order());
        Assert.Equal(set.Poison.Count(p => p.Kind != PoisonKind.NotJson), objects.Count - valid.Count);

        static Order? Valid(System.Text.Json.JsonElement e)
        {
            try
            {
                return OrderJson.Deserialize(e);
            }
            catch (InvalidOrderException)
            {
                return null;
            }
        }
    }

    [Fact]
    public async Task A_burst_of_several_publish_chunks_goes_out_whole_once_each_with_the_poison_among_the_orders_by_id()
    {
        var set = OrderGenerator.Generate((SidecarScheduler.PublishChunk * 2) + 500, 0.01, seed: 5);
        await OrderFile.WriteAsync(Path.Combine(_folder, "orders.json"), set, default);

        var exit = await new Cli().RunAsync(["schedule", "--model", "pubsub-bulk", .. Common()]);

        Assert.Equal(0, exit);
        var requests = _sidecar.BulkPublishes(OrderTopology.IngressQueue)
            .Select(r => r.Json.EnumerateArray().Select(e => IdOf(e.GetProperty("event"))).ToList()).ToList();
        Assert.All(requests, ids => Assert.Equal(ids.Order(), ids));
        Assert.Equal(set.Orders.Select(o => o.OrderId).Concat(set.Poison.Select(p => p.Id)).Order(), requests.SelectMany(ids => ids).Order());

        // Poison that is not JSON at all reads "order <id> for ...".
        static long IdOf(System.Text.Json.JsonElement e) => e.ValueKind == System.Text.Json.JsonValueKind.String
            ? long.Parse(e.GetString()!.Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture)
            : e.GetProperty("OrderId").GetInt64();
    }

    [Fact]
    public async Task An_orders_file_whose_last_order_repeats_an_id_stops_schedule_before_anything_is_published()
    {
        var orders = OrderGenerator.Generate(SidecarScheduler.PublishChunk + 10, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(_folder, "orders.json"), OrderSet.ValidOnly([.. orders, orders[0]]), default);
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", "--model", "pubsub-bulk", .. Common()]);

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains($"Id {orders[0].OrderId} appears more than once", cli.Output, StringComparison.Ordinal);
        Assert.Empty(_sidecar.BulkPublishes(OrderTopology.IngressQueue));
    }

    [Fact]
    public async Task Bindings_scheduling_hands_the_poison_to_the_binding_too_as_its_own_bytes()
    {
        var set = OrderGenerator.Generate(100, 0.1, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(_folder, "orders.json"), set, default);

        Assert.Equal(0, await new Cli().RunAsync(["schedule", "--model", "bindings", .. Common()]));

        Assert.Equal(100, _sidecar.Requests.Count(r => r.Path == $"/v1.0/bindings/{OrderTopology.IngressOutputBinding}"));
        var notJson = set.Poison.Where(p => p.Kind == PoisonKind.NotJson).Select(p => p.Payload).ToHashSet();
        Assert.Equal(notJson, _sidecar.Requests.Select(r => r.Json.GetProperty("data"))
            .Where(d => d.ValueKind == System.Text.Json.JsonValueKind.String).Select(d => d.GetString()!).ToHashSet());
    }

    [Theory]
    [InlineData("pub/sub", "bindings", "Run with --model pubsub-bulk or pubsub-single")]
    [InlineData("bindings", "pubsub-bulk", "Run with --model bindings")]
    [InlineData("bindings", "pubsub-single", "Run with --model bindings")]
    public async Task A_trio_running_another_model_than_model_stops_schedule_before_anything_is_published(string running, string asked, string advice)
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = running == "pub/sub" ? PubsubDistributor : BindingsDistributor;
        await GenerateAsync(10);
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", "--model", asked, "--sidecar", sidecar.Address.ToString(), "--storage", storage.Azurite.ConnectionString,
            "--orders", Path.Combine(_folder, "orders.json"), "--state", Path.Combine(_folder, "schedule.json")]);

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Empty(sidecar.Requests);
        var lines = cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.Contains($"The trio runs the {running} model", lines[0], StringComparison.Ordinal);
        Assert.Contains(advice, lines[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_trio_running_the_asked_model_is_scheduled()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = BindingsDistributor;
        await GenerateAsync(10);

        var exit = await new Cli().RunAsync(["schedule", "--model", "bindings", "--sidecar", sidecar.Address.ToString(), "--storage", storage.Azurite.ConnectionString,
            "--orders", Path.Combine(_folder, "orders.json"), "--state", Path.Combine(_folder, "schedule.json")]);

        Assert.Equal(0, exit);
        Assert.Equal(10, sidecar.Requests.Count(r => r.Path == $"/v1.0/bindings/{OrderTopology.IngressOutputBinding}"));
    }

    [Fact]
    public async Task Schedule_with_no_sidecar_prints_two_lines_naming_the_endpoint_and_exits_3()
    {
        await GenerateAsync(10);
        var port = Azurite.FreePort();

        var (exit, lines) = await Cli.RunProgramAsync("schedule", "--sidecar", $"http://127.0.0.1:{port}", "--storage", storage.Azurite.ConnectionString,
            "--orders", Path.Combine(_folder, "orders.json"), "--state", Path.Combine(_folder, "schedule.json"));

        Assert.Equal(ExitCodes.Unreachable, exit);
        Assert.InRange(lines.Count, 1, 2);
        Assert.Contains($"127.0.0.1:{port}", lines[0], StringComparison.Ordinal);
        Assert.Contains("scripts/run-local.sh", string.Join("\n", lines), StringComparison.Ordinal);
        Assert.DoesNotContain(lines, l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal));
    }

    private string[] Common() => ["--storage", storage.Azurite.ConnectionString, .. Files()];

    private string[] Files() =>
        ["--sidecar", _sidecar.Address.ToString(), "--orders", Path.Combine(_folder, "orders.json"), "--state", Path.Combine(_folder, "schedule.json")];

    private async Task<List<Order>> GenerateAsync(int count)
    {
        var orders = OrderGenerator.Generate(count, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(_folder, "orders.json"), OrderSet.ValidOnly(orders), default);
        return orders;
    }
}
