using System.Text.Json;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// Bulk publishing over a sequence of answers to the tries of one request: each entry is reported published once,
/// dropped once, or failed, and never sent again once confirmed.
/// </summary>
public sealed class BulkOrderPublisherRetryTests : BulkOrderPublishing
{
    private readonly List<(List<string> Sent, List<string> Confirmed)> _answers = [];

    [Fact]
    public async Task Entries_confirmed_before_a_neighbours_retry_is_refused_for_good_are_published_once_and_said_so()
    {
        // Try 1 confirms 1 and 2 and fails 3 for now; the retry of 3 alone is refused for good as a whole request.
        Script((call, _, request) =>
            call == 1 ? FailEntries(request, (3, "busy")) : (413, "grpc: received message larger than max"));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        AssertEachEntryOnce(["1", "2", "3"], unconfirmed, refusedForGood: ["3"]);
        Assert.Equal(["1", "2"], Published.Order());
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
        Assert.Equal(["1", "2", "3"], Published.Order());
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
        Assert.Equal(["3"], Failed.Keys);
    }

    [Fact]
    public async Task An_entry_refused_for_good_among_ones_failed_for_now_is_dropped_once_the_rest_published_on_retry()
    {
        Script((call, _, request) =>
            call == 1 ? FailEntries(request, (2, "busy"), (4, "the message is too large")) : (200, ""));
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(5)));

        AssertEachEntryOnce(["1", "2", "3", "4", "5"], unconfirmed, refusedForGood: ["4"]);
        Assert.Equal(["1", "2", "3", "5"], Published.Order());
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
        Assert.Equal(["2"], Failed.Keys);
        Assert.Equal(["3", "4"], Published.Order());
    }

    [Fact]
    public async Task Entries_confirmed_by_the_deadline_stay_published_and_the_rest_are_left_unconfirmed_undropped()
    {
        Script((_, _, request) =>
        {
            // Every call after the first waits until the caller gives up.
            Sidecar.Hang = new TaskCompletionSource().Task;
            return FailEntries(request, (3, "busy"));
        });
        await using var publishing = Publishing();
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(2));

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)), deadline.Token);

        Assert.Equal(["1", "2"], Published.Order());
        Assert.Equal(["3"], unconfirmed);
        Assert.Empty(Dropped);
        Assert.Single(_answers);
    }

    /// <summary>
    /// What every sequence of answers must end in: each confirmed entry reported published once and sent to the sidecar
    /// no more after its confirmation, each entry refused for good dropped once (and never confirmed), every other
    /// entry confirmed or reported failed, and the unconfirmed set exactly the entries not published.
    /// </summary>
    private void AssertEachEntryOnce(string[] entries, IReadOnlySet<string> unconfirmed, string[] refusedForGood)
    {
        var published = Published.ToList();
        Assert.Equal(published.Distinct().Count(), published.Count);
        Assert.Equal(refusedForGood.Order(), Dropped.Keys.Order());
        Assert.Empty(published.Intersect(Dropped.Keys));
        Assert.Empty(published.Intersect(Failed.Keys));
        Assert.Empty(Dropped.Keys.Intersect(Failed.Keys));
        Assert.All(entries.Except(refusedForGood), id => Assert.True(
            published.Contains(id) || Failed.ContainsKey(id),
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
        Sidecar.BulkAnswer = request =>
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
}
