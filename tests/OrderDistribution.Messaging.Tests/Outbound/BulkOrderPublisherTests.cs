using System.Collections.Concurrent;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// Bulk publishing against the sidecar emulator, by what the sidecar's answer says about the order: an order that can
/// never go is dropped once (before any call when its size says so), a transient failure is retried, a refusal of every
/// order is never a drop and makes the app not ready; and over any sequence of answers to the tries of one request,
/// each entry is reported published once, dropped once, or failed, and never sent again once confirmed.
/// </summary>
public sealed class BulkOrderPublisherTests : IAsyncLifetime
{
    private const string Topic = "q-order-express";
    private LogRecorder Logs { get; } = new();
    private readonly ConcurrentDictionary<string, string> _dropped = new();
    private readonly ConcurrentDictionary<string, string> _failed = new();
    private readonly ConcurrentBag<string> _published = [];
    private readonly List<(List<string> Sent, List<string> Confirmed)> _answers = [];
    private EmulatedSidecar _sidecar = null!;

    public async ValueTask InitializeAsync() => _sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync() => await _sidecar.DisposeAsync();

    [Fact]
    public async Task An_order_larger_than_the_sidecar_takes_is_dropped_once_without_a_call_and_the_rest_are_published()
    {
        await using var publishing = Publishing(("Messaging:MaxMessageBytes", "104857600"));
        var orders = Messages(TestOrders.Many(4));
        orders.Insert(2, Message(TestOrders.Make(99, Delivery.Express, descriptionLength: 5_000_000)));

        var unconfirmed = await PublishAsync(publishing, orders);

        Assert.Equal(["99"], unconfirmed);
        Assert.Equal(["99"], _dropped.Keys);
        Assert.Contains("more than the sidecar takes in one request (4 MiB, Dapr:MaxRequestBodySizeMb)", _dropped["99"],
            StringComparison.Ordinal);
        Assert.Equal(["1", "2", "3", "4"], _published.Order());
        Assert.Empty(_failed);
        Assert.DoesNotContain(_sidecar.Requests, r => r.Body.Length > 1_000_000);
    }

    [Fact]
    public async Task An_order_larger_than_the_brokers_largest_message_is_dropped_without_a_call()
    {
        await using var publishing = Publishing(("Messaging:MaxMessageBytes", "4096"));
        var orders = Messages(TestOrders.Many(2));
        orders.Add(Message(TestOrders.Make(9, Delivery.Express, descriptionLength: 5_000)));

        await PublishAsync(publishing, orders);

        Assert.Contains("more than the broker's largest message (4096 bytes, Messaging:MaxMessageBytes)", _dropped["9"],
            StringComparison.Ordinal);
        Assert.Equal(["1", "2"], _published.Order());
        Assert.DoesNotContain(_sidecar.Requests,
            r => Encoding.UTF8.GetString(r.Body).Contains("\"OrderId\":9", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_sidecar_that_refuses_a_request_for_its_size_has_only_the_order_that_makes_it_too_large_dropped()
    {
        // The sidecar refuses every request that carries order 3 as too large (ResourceExhausted): the app cannot know
        // which.
        _sidecar.BulkAnswer = request =>
            Encoding.UTF8.GetString(request.Body).Contains("\"OrderId\":3", StringComparison.Ordinal)
            ? (413, "grpc: received message larger than max (5000435 vs. 4194304)")
            : (200, "");
        await using var publishing = Publishing();

        await PublishAsync(publishing, Messages(TestOrders.Many(8)));

        Assert.Equal(["3"], _dropped.Keys);
        Assert.Contains("ResourceExhausted", _dropped["3"], StringComparison.Ordinal);
        Assert.Equal(["1", "2", "4", "5", "6", "7", "8"], _published.Order());
        Assert.Empty(_failed);
        var warnings = Logs.AtLeast(LogLevel.Warning)
            .Select(l => l.Message + " | " + l.Exception?.GetType().Name + l.Exception?.Message +
            l.Exception?.InnerException?.Message).ToList();
        Assert.True(warnings.Count == 0, string.Join("\n", warnings));
    }

    [Fact]
    public async Task An_entry_the_broker_refuses_for_its_size_is_dropped_and_never_sent_again()
    {
        _sidecar.FailEntry = entry => entry.ToString().Contains("\"OrderId\":2", StringComparison.Ordinal);
        _sidecar.BulkAnswer = request =>
            Encoding.UTF8.GetString(request.Body).Contains("\"OrderId\":2", StringComparison.Ordinal)
            ? (500, $$"""{"failedEntries":[{"entryId":"{{EntryIdOfOrder(request, 2)}}","error":"the message is """ +
                $$"""too large"}],"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE"}""")
            : (200, "");
        await using var publishing = Publishing();

        await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        Assert.Equal(["2"], _dropped.Keys);
        Assert.Equal(["1", "3"], _published.Order());
        Assert.Single(_sidecar.BulkPublishes(Topic));
    }

    [Fact]
    public async Task A_transient_failure_is_tried_again_then_left_to_be_delivered_again_and_nothing_is_dropped()
    {
        _sidecar.BulkAnswer = _ =>
            (500, """{"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE","message":"error when publishing to topic """ +
            """q-order-express in pubsub order-pubsub: OOM command not allowed"}""");
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        Assert.Equal(3, unconfirmed.Count);
        Assert.Empty(_dropped);
        Assert.Equal(3, _failed.Count);
        Assert.Equal(3, _sidecar.BulkPublishes(Topic).Count());
        Assert.True(await publishing.GetRequiredService<SidecarFailureJudge>().IsReadyAsync());
    }

    [Theory]
    [InlineData(404, """{"errorCode":"ERR_PUBSUB_NOT_FOUND","message":"pubsub order-pubsub is not found"}""")]
    [InlineData(401, "")]
    [InlineData(403,
        """{"errorCode":"ERR_PUBSUB_FORBIDDEN","message":"topic q-order-express is not allowed for app id """ +
        """distributor"}""")]
    public async Task Refusing_every_order_drops_none_and_makes_the_app_unready_with_one_error_line_until_a_call_passes(
        int status, string body)
    {
        _sidecar.BulkAnswer = _ => (status, body);
        await using var publishing = Publishing();
        var failures = publishing.GetRequiredService<SidecarFailureJudge>();

        await PublishAsync(publishing, Messages(TestOrders.Many(2)));
        await PublishAsync(publishing, Messages(TestOrders.Many(2, firstId: 10)));

        Assert.Empty(_dropped);
        Assert.Equal(4, _failed.Count);
        Assert.Equal(2, _sidecar.BulkPublishes(Topic).Count());
        Assert.False(await failures.IsReadyAsync());
        var error = Assert.Single(Logs.AtLeast(LogLevel.Error));
        Assert.Contains("refuses every order", error.Message, StringComparison.Ordinal);
        Assert.Null(error.Exception);

        _sidecar.BulkAnswer = _ => (200, "");
        await PublishAsync(publishing, Messages(TestOrders.Many(1, firstId: 20)));

        Assert.True(await failures.IsReadyAsync());
        Assert.Contains("20", _published);
    }

    [Fact]
    public async Task Orders_refused_for_good_never_open_the_circuit_for_the_orders_behind_them()
    {
        _sidecar.BulkAnswer = request =>
            Encoding.UTF8.GetString(request.Body).Contains("\"Description\":\"x", StringComparison.Ordinal)
            ? (413, "grpc: received message larger than max")
            : (200, "");
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "1024"));
        var refused = Enumerable.Range(1, 40)
            .Select(i => Message(TestOrders.Make(i, Delivery.Express) with { Description = "x" })).ToList();

        await PublishAsync(publishing, refused);
        await PublishAsync(publishing, Messages(TestOrders.Many(5, firstId: 100)));

        Assert.Equal(40, _dropped.Count);
        Assert.Equal(5, _published.Count);
        Assert.DoesNotContain(Logs.Lines,
            l => l.Message.StartsWith("Most calls to the Dapr sidecar failed", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Entries_confirmed_before_a_neighbours_retry_is_refused_for_good_are_published_once_and_said_so()
    {
        // Try 1 confirms 1 and 2 and fails 3 for now; the retry of 3 alone is refused for good as a whole request.
        Script((call, _, request) =>
            call == 1 ? FailEntries(request, (3, "busy")) : (413, "grpc: received message larger than max"));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        AssertEachEntryOnce(["1", "2", "3"], unconfirmed, refusedForGood: ["3"]);
        Assert.Equal(["1", "2"], _published.Order());
    }

    [Fact]
    public async Task Entries_confirmed_before_their_neighbours_retries_are_refused_as_a_request_are_published_once()
    {
        // Try 1 confirms 1 and 2; the retry of 3 and 4 together is refused for its size, so the halves find order 4.
        Script((call, orders, request) => call == 1 ? FailEntries(request, (3, "busy"), (4, "busy"))
            : orders.Contains(4) ? (413, "grpc: received message larger than max")
            : (200, ""));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(4)));

        AssertEachEntryOnce(["1", "2", "3", "4"], unconfirmed, refusedForGood: ["4"]);
        Assert.Equal(["1", "2", "3"], _published.Order());
    }

    [Fact]
    public async Task A_whole_request_failure_after_a_partial_success_leaves_only_the_unconfirmed_entries_to_redeliver()
    {
        Script((call, _, request) => call == 1
            ? FailEntries(request, (3, "busy"))
            : (500, """{"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE","message":"connection reset"}"""));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        AssertEachEntryOnce(["1", "2", "3"], unconfirmed, refusedForGood: []);
        Assert.Equal(["3"], _failed.Keys);
    }

    [Fact]
    public async Task An_entry_refused_for_good_among_ones_failed_for_now_is_dropped_once_the_rest_published_on_retry()
    {
        Script((call, _, request) =>
            call == 1 ? FailEntries(request, (2, "busy"), (4, "the message is too large")) : (200, ""));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(5)));

        AssertEachEntryOnce(["1", "2", "3", "4", "5"], unconfirmed, refusedForGood: ["4"]);
        Assert.Equal(["1", "2", "3", "5"], _published.Order());
    }

    [Fact]
    public async Task Entries_failing_for_now_on_every_try_after_a_refusal_for_good_are_reported_failed_never_dropped()
    {
        Script((call, _, request) => call == 1
            ? FailEntries(request, (1, "the message is too large"), (2, "busy"), (3, "busy"))
            : FailEntries(request, (2, "busy")));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(4)));

        AssertEachEntryOnce(["1", "2", "3", "4"], unconfirmed, refusedForGood: ["1"]);
        Assert.Equal(["2"], _failed.Keys);
        Assert.Equal(["3", "4"], _published.Order());
    }

    [Fact]
    public async Task Entries_confirmed_by_the_deadline_stay_published_and_the_rest_are_left_unconfirmed_undropped()
    {
        Script((_, _, request) =>
        {
            // Every call after the first waits until the caller gives up.
            _sidecar.Hang = new TaskCompletionSource().Task;
            return FailEntries(request, (3, "busy"));
        });
        await using var publishing = Publishing();
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(2));

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)), deadline.Token);

        Assert.Equal(["1", "2"], _published.Order());
        Assert.Equal(["3"], unconfirmed);
        Assert.Empty(_dropped);
        Assert.Single(_answers);
    }

    /// <summary>
    /// What every sequence of answers must end in: each confirmed entry reported published once and sent to the sidecar
    /// no more after its confirmation, each entry refused for good dropped once (and never confirmed), every other
    /// entry confirmed or reported failed, and the unconfirmed set exactly the entries not published.
    /// </summary>
    private void AssertEachEntryOnce(string[] entries, IReadOnlySet<string> unconfirmed, string[] refusedForGood)
    {
        var published = _published.ToList();
        Assert.Equal(published.Distinct().Count(), published.Count);
        Assert.Equal(refusedForGood.Order(), _dropped.Keys.Order());
        Assert.Empty(published.Intersect(_dropped.Keys));
        Assert.Empty(published.Intersect(_failed.Keys));
        Assert.Empty(_dropped.Keys.Intersect(_failed.Keys));
        Assert.All(entries.Except(refusedForGood), id => Assert.True(
            published.Contains(id) || _failed.ContainsKey(id),
                $"entry {id} was neither published nor reported failed"));
        Assert.Equal(entries.Except(published).Order(), unconfirmed.Order());
        foreach (var id in published)
        {
            var confirmedAt = _answers.FindIndex(a => a.Confirmed.Contains(id));
            Assert.DoesNotContain(_answers.Skip(confirmedAt + 1), a => a.Sent.Contains(id));
        }
    }

    /// <summary>
    /// Answers each bulk publish by <paramref name="answer"/> (the call's number from 1, the ids of the orders it
    /// carries, the request) and records what each call carried and what its answer confirmed.
    /// </summary>
    private void Script(Func<int, IReadOnlyList<long>, SidecarRequest, (int Status, string Body)> answer)
    {
        _sidecar.BulkAnswer = request =>
        {
            var sent = request.Json.EnumerateArray().ToDictionary(
                e => e.GetProperty("entryId").GetString()!,
                    e => e.GetProperty("event").GetProperty("OrderId").GetInt64());
            lock (_answers)
            {
                var (status, body) = answer(_answers.Count + 1, sent.Values.ToList(), request);
                var failed = body.StartsWith('{')
                    && JsonDocument.Parse(body).RootElement.TryGetProperty("failedEntries", out var named)
                    ? named.EnumerateArray().Select(f => sent[f.GetProperty("entryId").GetString()!]).ToList()
                    : null;
                var confirmed = failed is not null ? sent.Values.Except(
                    failed) : status is >= 200 and < 300 ? sent.Values : [];
                _answers.Add((Ids(sent.Values), Ids(confirmed)));
                return (status, body);
            }
        };
    }

    private static List<string> Ids(IEnumerable<long> orderIds) =>
        orderIds.Select(id => id.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToList();

    /// <summary>
    /// A partly failed bulk publish, as runtime 1.17 and later answer it: the named entries failed, the rest were
    /// published.
    /// </summary>
    private static (int Status, string Body) FailEntries(SidecarRequest request,
        params (long OrderId, string Error)[] failed) =>
        (500, JsonSerializer.Serialize(new
        {
            failedEntries = failed.Select(f => new { entryId = EntryIdOfOrder(request, f.OrderId), error = f.Error }),
            errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE",
        }));

    private ServiceProvider Publishing(params (string Key, string Value)[] settings) =>
        EmulatorDaprClient.Publishing(_sidecar.Address, Logs, settings);

    private Task<IReadOnlySet<string>> PublishAsync(
        ServiceProvider publishing, IReadOnlyList<OutboundMessage> messages,
            CancellationToken cancellationToken = default) =>
        publishing.GetRequiredService<BulkOrderPublisher>().PublishAsync(
            Topic, messages, cancellationToken,
            published: _published.Add,
            failed: (id, reason) => _failed[id] = reason,
            dropped: (id, reason) => Assert.True(_dropped.TryAdd(id, reason), $"entry {id} dropped twice"));

    private static List<OutboundMessage> Messages(IEnumerable<Order> orders) => orders.Select(Message).ToList();

    private static OutboundMessage Message(Order order) =>
        new(order.OrderId.ToString(System.Globalization.CultureInfo.InvariantCulture), OrderJson.Serialize(order));

    private static string EntryIdOfOrder(SidecarRequest request, long orderId) =>
        request.Json.EnumerateArray()
            .First(e => e.GetProperty("event").ToString().Contains($"\"OrderId\":{orderId}", StringComparison.Ordinal))
            .GetProperty("entryId").GetString()!;
}
