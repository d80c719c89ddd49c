using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The entry points over HTTP, with a stub handler that sends every order on through the core's ways out, against the
/// sidecar emulator in its recording mode: every entry is decided on its own, the sidecar's answers are not trusted
/// beyond what they say, and every request is answered within its deadline.
/// </summary>
public sealed class RequestRulesTests : IAsyncLifetime
{
    private EmulatedSidecar _sidecar = null!;

    public async ValueTask InitializeAsync() => _sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync() => await _sidecar.DisposeAsync();

    [Fact]
    public async Task Poison_entries_are_dropped_one_by_one_and_their_valid_neighbours_are_published_once()
    {
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);
        string Event(long id) => Convert.ToBase64String(OrderJson.Serialize(TestOrders.Make(id, Delivery.Express)));
        var body = $$$"""
            {"entries":[
              {"entryId":"e1","event":"{{{Event(1)}}}"},
              {"event":"{{{Event(2)}}}"},
              {"entryId":7,"event":"{{{Event(7)}}}"},
              {"entryId":"\uDD00","event":"{{{Event(3)}}}"},
              {"entryId":"e4"},
              {"entryId":"e5","event":"\uD800abc"},
              {"entryId":"e1","event":"{{{Event(1)}}}"},
              {"entryId":"e6","event":"{{{Convert.ToBase64String("not json at all"u8.ToArray())}}}"},
              {"entryId":"e8",
               "event":{"OrderId":8,"OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":"Overnight"}},
              "not an entry",
              {"entryId":"e9","event":"{{{Event(9)}}}"}
            ]}
            """;

        var response = await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var statuses = await OrderedStatusesAsync(response);
        Assert.Equal(
            [("e1", "SUCCESS"), ("7", "SUCCESS"), ("e4", "DROP"), ("e5", "DROP"), ("e6", "DROP"), ("e8", "DROP"),
                ("e9", "SUCCESS")],
            statuses);
        Assert.Equal([1, 7, 9], PublishedOrderIds().Order());
        var warnings = app.Logs.AtLeast(LogLevel.Warning).Select(l => l.Message).ToList();
        Assert.Contains(warnings, w => w.Contains("position 1", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.Contains("position 3", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.Contains("position 9", StringComparison.Ordinal));
        foreach (var dropped in new[] { "e4", "e5", "e6", "e8" })
        {
            Assert.Contains(warnings,
                w => w.StartsWith($"Dropped entry {dropped} from q-order-ingress:", StringComparison.Ordinal));
        }

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/health")).StatusCode);
    }

    [Fact]
    public async Task Only_the_entries_a_2xx_answer_names_as_failed_are_answered_RETRY()
    {
        _sidecar.BulkAnswer = request =>
            (200, $$"""{"failedEntries":[{"entryId":"{{FirstEntryId(request)}}","error":"busy"}]}""");
        await using var app = await ForwardingAsync();
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(4).Where(o => o.Delivery == Delivery.Express),
            "q-order-ingress");

        var statuses = await BulkRequest.StatusesAsync(
            await (await ReadyClientAsync(app)).PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body)));

        Assert.Equal("RETRY", statuses[entryIds[0]]);
        Assert.Equal("SUCCESS", statuses[entryIds[1]]);
        var warning = Assert.Single(app.Logs.AtLeast(LogLevel.Warning));
        Assert.EndsWith($"first failure: {entryIds[0]}: publish to q-order-express failed: busy", warning.Message,
            StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(500,
        """{"failedEntries":[{"entryId":"not-sent","error":"x"}],"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE"}""")]
    [InlineData(500, """{"failedEntries":[],"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE"}""")]
    [InlineData(503, "<html>Service Unavailable</html>")]
    [InlineData(500, """{"errorCode":"ERR_PUBSUB_NOT_FOUND","message":"pubsub order-pubsub not found"}""")]
    [InlineData(200, "all good, probably")]
    [InlineData(200, """{"failedEntries":[{"entryId":"not-sent"}]}""")]
    [InlineData(400, """{"failedEntries":"many"}""")]
    public async Task An_answer_that_does_not_say_which_entries_were_published_makes_every_entry_RETRY(int status,
        string answer)
    {
        _sidecar.BulkAnswer = _ => (status, answer);
        await using var app = await ForwardingAsync();
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(6), "q-order-ingress");

        var response = await (await ReadyClientAsync(app)).PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var statuses = await BulkRequest.StatusesAsync(response);
        Assert.All(entryIds, id => Assert.Equal("RETRY", statuses[id]));
    }

    [Fact]
    public async Task A_publish_the_sidecar_confirms_with_204_is_SUCCESS_and_carries_the_byte_budget_it_was_chunked_by()
    {
        await using var app = await ForwardingAsync(("Messaging:MaxBulkPublishBytes", "4096"));
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(40, descriptionLength: 200), "q-order-ingress");

        var statuses = await BulkRequest.StatusesAsync(
            await (await ReadyClientAsync(app)).PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        var publishes = _sidecar.Requests.Where(r =>
            r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)).ToList();
        Assert.True(publishes.Count > 2, "the budget should have split the bulk");
        Assert.All(publishes, p => Assert.Equal("4096", p.Query["metadata.maxBulkPubBytes"]));
        Assert.All(publishes,
            p => Assert.True(p.Body.Length <= 4096, $"a request of {p.Body.Length} bytes exceeds the budget"));
    }

    [Theory]
    [InlineData("/q-order-ingress-bulk")]
    [InlineData("/q-order-ingress-single")]
    [InlineData("/q-order-ingress-input")]
    public async Task With_a_sidecar_that_never_answers_a_request_is_answered_by_its_deadline_and_nothing_is_SUCCESS(
        string route)
    {
        _sidecar.Hang = new TaskCompletionSource().Task;
        await using var app = await ForwardingAsync(("Messaging:RequestDeadline", "00:00:01"));
        var client = await ReadyClientAsync(app);
        var order = TestOrders.Make(1, Delivery.Express);
        var content = route switch
        {
            "/q-order-ingress-bulk" =>
                BulkRequest.Json(BulkRequest.RawPayload(TestOrders.Many(50), "q-order-ingress").Body),
            "/q-order-ingress-single" =>
                BulkRequest.Json(
                $$"""{"specversion":"1.0","id":"c1","type":"com.dapr.event.sent","data":{{TestOrders.Json(order)}}}"""),
            _ => BulkRequest.Json(TestOrders.Json(order)),
        };

        var clock = Stopwatch.StartNew();
        var response = await client.PostAsync(route, content);
        clock.Stop();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(4),
            $"answered after {clock.Elapsed.TotalSeconds:0.0} s, deadline 1 s");
        var answer = await response.Content.ReadAsStringAsync();
        Assert.DoesNotContain("SUCCESS", answer, StringComparison.Ordinal);
        Assert.Equal(
            route.EndsWith("-input", StringComparison.Ordinal) ? HttpStatusCode.ServiceUnavailable : HttpStatusCode.OK,
            response.StatusCode);
        Assert.Contains(app.Logs.Lines,
            l => l.Message.Contains("passed its deadline of 1 s", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_dead_sidecar_opens_the_circuit_so_a_large_bulk_fails_fast_instead_of_one_timeout_after_another()
    {
        _sidecar.Hang = new TaskCompletionSource().Task;
        await using var app = await ForwardingAsync(
            ("Messaging:RequestDeadline", "00:00:30"), ("Messaging:MaxBulkPublishBytes", "4096"),
                ("Dapr:RequestTimeout", "00:00:00.300"),
            ("Logging:LogLevel:OrderDistribution", "Debug"));
        var client = await ReadyClientAsync(app);
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(2_000, descriptionLength: 200),
            "q-order-ingress");
        var linesBefore = app.Logs.Lines.Count;

        var clock = Stopwatch.StartNew();
        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body)));
        clock.Stop();

        // About 400 requests of 0.3 s each, four at a time and tried three times: 90 s without a breaker.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(20), $"answered after {clock.Elapsed.TotalSeconds:0.0} s");
        Assert.All(entryIds, id => Assert.Equal("RETRY", statuses[id]));
        Assert.DoesNotContain(app.Logs.Lines, l => l.Message.Contains("passed its deadline", StringComparison.Ordinal));
        // Hundreds of timeouts and refused calls, each handled: one warning for the outage (the breaker's, which the
        // delivery's own shares its pace with), no stack trace, and nothing from Polly, which would log every attempt.
        var logged = app.Logs.Lines.Skip(linesBefore).Where(l => l.Level >= LogLevel.Information).ToList();
        Assert.True(logged.Count <= 4, string.Join("\n", logged.Select(l => l.Message)));
        Assert.All(logged, l => Assert.Null(l.Exception));
        Assert.DoesNotContain(logged, l => l.Category.StartsWith("Polly", StringComparison.Ordinal));
        var warning = Assert.Single(logged, l => l.Level >= LogLevel.Warning);
        Assert.StartsWith("Most calls to the Dapr sidecar failed", warning.Message, StringComparison.Ordinal);
        Assert.Contains(app.Logs.Lines, l => l.Level == LogLevel.Debug
            && l.Message.StartsWith("Request of 2000 from q-order-ingress (pubsub-bulk): 0 succeeded, 2000 to retry",
                StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_refused_single_publish_is_answered_RETRY_with_one_warning_naming_the_sidecars_own_reason()
    {
        _sidecar.PublishAnswer = _ => (500, "chosen to fail");
        await using var app = await ForwardingAsync(("Messaging:Model", "pubsub-single"));
        var client = app.Client;
        var order = TestOrders.Json(TestOrders.Make(3, Delivery.Standard));

        var response = await client.PostAsync("/q-order-ingress-single",
            BulkRequest.Json($$"""{"specversion":"1.0","id":"c3","type":"com.dapr.event.sent","data":{{order}}}"""));

        Assert.Equal("RETRY",
            JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("status")
            .GetString());
        var warning = Assert.Single(app.Logs.AtLeast(LogLevel.Warning));
        Assert.EndsWith(
            "first failure: c3: forwarding order 3 to q-order-standard failed: Internal: 500 chosen to fail",
            warning.Message, StringComparison.Ordinal);
        Assert.Null(warning.Exception);
        // The category retry-drop.kql and the workbook read, and Application Insights is sent.
        Assert.Equal("OrderDistribution.Messaging.Inbound.RequestRun", warning.Category);
    }

    [Fact]
    public async Task A_request_that_goes_well_logs_nothing_at_information_or_above()
    {
        await using var app = await ForwardingAsync(("Logging:LogLevel:OrderDistribution", "Debug"));
        var client = await ReadyClientAsync(app);
        var linesAtStart = app.Logs.AtLeast(LogLevel.Information).Count();

        for (var i = 0; i < 5; i++)
        {
            var (body, _) = BulkRequest.RawPayload(TestOrders.Many(50, firstId: 1 + (50 * i)), "q-order-ingress");
            Assert.Equal(HttpStatusCode.OK,
                (await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body))).StatusCode);
        }

        Assert.Equal(linesAtStart, app.Logs.AtLeast(LogLevel.Information).Count());
        Assert.Contains(app.Logs.Lines,
            l => l.Level == LogLevel.Debug
            && l.Message.StartsWith("Request of 50 from q-order-ingress", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_caller_that_hangs_up_half_way_leaves_a_log_line()
    {
        _sidecar.Hang = new TaskCompletionSource().Task;
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);
        using var hangUp = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.PostAsync(
            "/q-order-ingress-bulk",
                BulkRequest.Json(BulkRequest.RawPayload(TestOrders.Many(5), "q-order-ingress").Body), hangUp.Token));

        await Eventually.TrueAsync(() => app.Logs.Lines.Any(l => l.Level == LogLevel.Warning
            && l.Message.StartsWith(
                "Requests from q-order-ingress (pubsub-bulk) are answered RETRY: 5 entries in the first",
                StringComparison.Ordinal)
            && l.Message.Contains("first failure: (all): the sidecar hung up after", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task With_an_app_API_token_only_health_is_open_without_it_and_every_publish_carries_the_sidecars()
    {
        await using var app = await ForwardingAsync(("APP_API_TOKEN", "app-secret"),
            ("DAPR_API_TOKEN", "sidecar-secret"));
        var client = await ReadyClientAsync(app);
        var delivery = BulkRequest.RawPayload(TestOrders.Many(2), "q-order-ingress").Body;

        var without = await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(delivery));
        var wrong = await SendAsync(client, "/q-order-ingress-bulk", delivery, "app-secreT");
        var with = await SendAsync(client, "/q-order-ingress-bulk", delivery, "app-secret");
        var subscribe = await client.GetAsync("/dapr/subscribe");

        Assert.Equal(HttpStatusCode.Unauthorized, without.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, subscribe.StatusCode);
        Assert.Equal(HttpStatusCode.OK, with.StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/alive")).StatusCode);
        var publishes = _sidecar.Requests.Where(r =>
            r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(publishes);
        Assert.All(publishes, p => Assert.Equal("sidecar-secret", p.Headers["dapr-api-token"]));
    }

    [Fact]
    public async Task An_error_answer_carries_no_stack_trace_even_in_Development()
    {
        var options = new UnreadableOptions();
        await using var app = await EntryPointsHost.ForwardingAsync(
            _sidecar.Address, Environments.Development,
                services => services.Replace(ServiceDescriptor.Singleton<IOptions<MessagingOptions>>(options)));
        var client = app.Client;
        options.FailFromNow();

        var response = await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json("""{"entries":[]}"""));

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var body = await response.Content.ReadAsStringAsync();
        Assert.DoesNotContain("UnreadableOptions", body, StringComparison.Ordinal);
        Assert.DoesNotContain(" at ", body, StringComparison.Ordinal);
    }

    /// <summary>
    /// Settings that can be read while the app starts (its routes, its warm-up) and fail every request after that.
    /// </summary>
    private sealed class UnreadableOptions : IOptions<MessagingOptions>
    {
        private volatile bool _failing;

        public MessagingOptions Value => _failing
            ? throw new InvalidOperationException("UnreadableOptions: the settings cannot be read")
            : new MessagingOptions();

        public void FailFromNow() => _failing = true;
    }

    private Task<EntryPointsHost> ForwardingAsync(params (string Key, string? Value)[] settings) =>
        EntryPointsHost.ForwardingAsync(_sidecar.Address, settings);

    private static async Task<HttpClient> ReadyClientAsync(EntryPointsHost app)
    {
        await Eventually.StatusAsync(app.Client, "/health", HttpStatusCode.OK);
        return app.Client;
    }

    private static async Task<HttpResponseMessage> SendAsync(HttpClient client, string path, string body, string token)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = BulkRequest.Json(body) };
        request.Headers.Add("dapr-api-token", token);
        return await client.SendAsync(request);
    }

    private static string FirstEntryId(SidecarRequest request) => request.Json[0].GetProperty("entryId").GetString()!;

    private IEnumerable<long> PublishedOrderIds() =>
        _sidecar.Requests
            .Where(r => r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal))
            .SelectMany(r => r.Json.EnumerateArray())
            .Select(e => e.GetProperty("event").GetProperty("OrderId").GetInt64());

    private static async Task<List<(string, string)>> OrderedStatusesAsync(HttpResponseMessage response)
    {
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return document.RootElement.GetProperty("statuses").EnumerateArray()
            .Select(s => (s.GetProperty("entryId").GetString()!, s.GetProperty("status").GetString()!))
            .ToList();
    }
}
