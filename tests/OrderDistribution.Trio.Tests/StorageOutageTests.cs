using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Trio.Tests;

/// <summary>
/// Storage stopped cleanly (every call refused at once) as a burst starts, for longer than the inbound retry window,
/// then back: the trio in-process behind the sidecar emulator, which runs the shipped components-pubsub/ policy and
/// timers at <see cref="Scale"/> as each runtime's pub/sub component does (docs/runtimes.md, "Retries of a request").
/// On Dapr 1.17 and newer the component acknowledges a message whose retries are spent while its context still runs.
/// </summary>
[Collection(TrioRuns.Name)]
public sealed class StorageOutageTests
{
    /// <summary>
    /// Every Dapr time (retry interval, processingTimeout, redeliverInterval) and the outage run this fast.
    /// </summary>
    private const double Scale = 1.0 / 5;

    private const int Orders = 1_000;

    /// <summary>A minute's outage, scaled.</summary>
    private static readonly TimeSpan Outage = TimeSpan.FromSeconds(60) * Scale;

    /// <summary>
    /// A receiver logs an outage's end once no delivery was answered RETRY for 2 s (RetryOutage.QuietPeriod).
    /// </summary>
    private static readonly TimeSpan RetryOutageQuietPeriod = TimeSpan.FromSeconds(2);

    private const string StorageBreakerCategory = "OrderDistribution.Storage.StorageResilience";

    [Theory]
    [InlineData("1.14", MessagingModel.PubSubBulk)]
    [InlineData("1.14", MessagingModel.PubSubSingle)]
    [InlineData("1.17", MessagingModel.PubSubBulk)]
    [InlineData("1.17", MessagingModel.PubSubSingle)]
    [InlineData("1.19", MessagingModel.PubSubBulk)]
    [InlineData("1.19", MessagingModel.PubSubSingle)]
    public async Task With_the_shipped_policy_storage_refusing_past_the_retry_window_loses_no_order_rest_stored_soon(
        string runtime, MessagingModel model)
    {
        var shipped = PubSubRetries.Shipped();
        Assert.True(Outage > shipped.RetryWindow * Scale,
            $"the outage ({Outage}) does not outlast the retry window ({shipped.RetryWindow * Scale})");

        var run = await RunAsync(shipped, DaprRuntimeProfile.Of(runtime), model);
        TestContext.Current.TestOutputHelper?.WriteLine(run.ToString());

        Assert.True(run.Quiet, $"messages were still outstanding at the timeout. {run}\n{run.Timeline}");
        Assert.Equal(0, run.AcknowledgedUnstored);
        Assert.Equal(Orders, run.Stored);
        Assert.True(run.StoredAtRestore < Orders && run.Retried > 0, $"the outage hit no order. {run}");
        // The rest of the burst within 30 s of storage answering again. The Dapr timers run at the test's scale, so
        // the trio may wait on them twice the scaled 30 s; storing the rest is work, done on the cores the test shares
        // with Azurite and whatever else runs, so it is bounded by this trio's own pace on this machine just before (a
        // clean burst as large), twice over, for each delivery left: every order, and every copy of one the sidecar
        // handed out again (before 1.18.5 a single delivery's retries go on past its context while a copy is handed
        // out again each processingTimeout, so a minute's outage leaves several copies of each). No stretch of the
        // recovery may stand still longer than the timers' part: the 110 s measured once on daprd 1.14 was such a
        // wait, 22 s at this scale.
        var timers = TimeSpan.FromSeconds(30) * Scale * 2;
        var bound = timers + run.CleanBurst * 2 * (1 + (double)run.HandedOutAgain / Orders);
        var stored = run.StoredAfterRestore?.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture) ?? "never";
        Assert.True(run.StoredAfterRestore <= bound,
            $"stored {stored} s after storage answered again, bound {bound.TotalSeconds:0.0} s. {run}\n{run.Timeline}");
        Assert.True(run.LongestStall <= timers,
            $"nothing more was stored for {run.LongestStall.TotalSeconds:0.0} s while orders were missing, at most " +
            $"{timers.TotalSeconds:0} s. {run}\n{run.Timeline}");

        // The outage is one outage in each receiver's log, not a line per delivery: it does not end while storage
        // refuses, and its end is logged after. A write slow on a loaded machine after that is another.
        foreach (var (receiver, logs) in run.ReceiverLogs)
        {
            var lines = logs.ToList();
            var printed = $"{receiver}'s lines. {run}\n" + string.Join('\n',
                lines.Where(l => l.Level >= LogLevel.Information).Select(l => $"{l.Level}: {l.Message}"));
            var warnings = lines.Where(l => l.Level >= LogLevel.Warning
                && l.Category.StartsWith("OrderDistribution", StringComparison.Ordinal)).ToList();
            var allowed = (int)(run.Elapsed / TimeSpan.FromSeconds(5)) + 1;
            Assert.True(warnings.Count <= allowed,
                $"{warnings.Count} warnings in {run.Elapsed.TotalSeconds:0} s, at most {allowed}: {printed}");
            var duringOutage = lines.Take(run.ReceiverLinesAtRestore[receiver]).ToList();
            Assert.False(duringOutage.Any(IsOutageEnd), $"the outage ended while storage refused: {printed}");
            var ended = lines.Skip(duringOutage.Count).FirstOrDefault(IsOutageEnd);
            Assert.True(ended is not null, $"the outage's end was not logged: {printed}");
            Assert.Matches(@"for [0-9.]+ s, [1-9][0-9]* requests were answered RETRY, with [1-9][0-9]* entries in all",
                ended.Message);
            Assert.DoesNotContain(lines,
                l => l.Level >= LogLevel.Information && l.Message.StartsWith("Request of ", StringComparison.Ordinal));
        }
    }

    private static bool IsOutageEnd(LoggedLine line) =>
        line.Message.Contains(" are answered again: ", StringComparison.Ordinal);

    /// <summary>
    /// The control: a policy whose retries are spent inside processingTimeout (the policy shipped before had 15 a
    /// second apart inside 20 s) spends them while storage still refuses, and on 1.17 and newer the component
    /// acknowledges those orders. Only the YAML differs. Three retries, not fifteen, keep the retries well inside the
    /// scaled processingTimeout on a loaded machine, where each RETRY answer comes later.
    /// </summary>
    [Theory]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    public async Task Retries_spent_inside_processingTimeout_have_orders_acked_unstored_on_Dapr_117_as_this_test_sees(
        MessagingModel model)
    {
        var shippedPolicy = PubSubRetries.ShippedText("resiliency.yaml");
        Assert.Contains("maxRetries: -1", shippedPolicy, StringComparison.Ordinal);
        var former = PubSubRetries.Parse(
            PubSubRetries.ShippedText("order-pubsub.yaml"),
                shippedPolicy.Replace("maxRetries: -1", "maxRetries: 3", StringComparison.Ordinal));
        Assert.True(former.RetryWindow < former.ProcessingTimeout);

        var run = await RunAsync(former, DaprRuntimeProfile.Dapr117, model);
        TestContext.Current.TestOutputHelper?.WriteLine(run.ToString());

        Assert.True(run.Quiet, $"messages were still outstanding at the timeout. {run}");
        Assert.True(run.Stored < Orders, $"no order was lost. {run}");
        // Each lost order was acknowledged by the component (some acknowledged were stored: their write went through
        // while storage was being cut, the answer did not).
        Assert.True(run.AcknowledgedUnstored >= Orders - run.Stored, run.ToString());
    }

    private static async Task<OutageRun> RunAsync(PubSubRetries delivery, DaprRuntimeProfile runtime,
        MessagingModel model)
    {
        var orders = OrderGenerator.Generate(Orders, seed: 34);
        var clean = OrderGenerator.Generate(Orders, seed: 35, new BurstId(2));
        await using var azurite = await Azurite.StartAsync();
        using var storage = new TcpCutProxy(azurite.Port);
        var logs = AppHost.Members.ToDictionary(m => m, _ => new LogRecorder());
        await using var trio = await EmulatedTrio.StartAsync(new EmulatedTrioOptions
        {
            StorageConnectionString = Azurite.ConnectionStringFor(storage.Port),
            Model = model,
            Sidecar = delivery.SidecarOptions(Scale, runtime) with { ConcurrentSingleRequests = 64 },
            // The storage breaker's closing is logged at Debug: the timeline counts it.
            ConfigureLogging = (app, logging) => logging.ClearProviders().AddProvider(logs[app])
                .AddFilter(StorageBreakerCategory, LogLevel.Debug),
        });
        await trio.WaitUntilReadyAsync(TimeSpan.FromSeconds(60), CancellationToken.None);

        // This machine's pace now: a burst as large stored with storage answering.
        var cleanClock = Stopwatch.StartNew();
        trio.Schedule(clean.Select(OrderJson.Serialize));
        Assert.True(await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromSeconds(60)), "the clean burst did not end");
        var cleanBurst = cleanClock.Elapsed;
        var linesBefore = logs.ToDictionary(l => l.Key, l => l.Value.Lines.Count);

        // Storage refuses from the burst's start, and the outage is timed from when each receiver has answered RETRY: a
        // burst of this size is stored within a second on an idle machine, before an outage started mid-burst could
        // reach both receivers.
        storage.Refusing = true;
        var clock = Stopwatch.StartNew();
        trio.Schedule(orders.Select(OrderJson.Serialize));
        var receiverQueues = OrderTopology.Instances.Select(OrderTopology.QueueOf).ToList();
        await Eventually.TrueAsync(
            () => receiverQueues.All(t => trio.Sidecar.Queues.TryGetValue(t, out var report) && report.Retried > 0),
            TimeSpan.FromSeconds(30));
        await using var timeline = new OutageTimeline(Orders,
            () => CountStoredAsync(azurite.ConnectionString, orders),
            () => Task.FromResult(string.Join("; ", receiverQueues.Select(q =>
                    trio.Sidecar.Queues.TryGetValue(q, out var r)
                        ? $"{q}: {r.Requests} requests, {r.Retried} answered RETRY, {trio.Sidecar.PendingIn(q)} " +
                          $"pending, {r.HandedOutAgain} handed out again"
                        : $"{q}: nothing yet")
                .Concat(OrderTopology.Instances.Select(i =>
                    OutageTimeline.ReceiverLines(i, logs[i], linesBefore[i]))))));
        await Task.Delay(Outage);
        var storedAtRestore = await CountStoredAsync(azurite.ConnectionString, orders);
        var receiverLinesAtRestore = OrderTopology.Instances.ToDictionary(i => i, i => logs[i].Lines.Count);
        storage.Refusing = false;
        timeline.StorageBack();
        var restoredAt = clock.Elapsed;

        var quiet = await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromSeconds(60));
        var afterRestore = clock.Elapsed - restoredAt;
        // The outage's closing line comes once no delivery has been answered RETRY for a while.
        await Task.Delay(RetryOutageQuietPeriod + TimeSpan.FromSeconds(1.5));
        var queues = trio.Sidecar.Queues.Values.ToList();
        return new OutageRun(
            quiet,
            await CountStoredAsync(azurite.ConnectionString, orders),
            storedAtRestore,
            queues.Sum(t => t.AcknowledgedUnstored),
            queues.Sum(t => t.Retried),
            queues.Sum(t => t.LeftPending),
            queues.Sum(t => t.HandedOutAgain),
            afterRestore,
            clock.Elapsed,
            OrderTopology.Instances.ToDictionary(
                i => i, i => (IReadOnlyList<LoggedLine>)logs[i].Lines.Skip(linesBefore[i]).ToList()),
            OrderTopology.Instances.ToDictionary(i => i, i => receiverLinesAtRestore[i] - linesBefore[i]))
        {
            CleanBurst = cleanBurst,
            StoredAfterRestore = timeline.AllStoredAfterBack,
            LongestStall = timeline.LongestStallAfterBack,
            Timeline = timeline.ToString(),
        };
    }

    /// <summary>
    /// The orders of <paramref name="orders"/> stored in their outbox, each under its own name: an order stored twice
    /// is
    /// one blob. Any other blob there is of the clean burst before.
    /// </summary>
    private static async Task<int> CountStoredAsync(string connectionString, IReadOnlyList<Order> orders)
    {
        var expected = orders.ToDictionary(o => OrderBlob.NameOf(o),
            o => OrderTopology.OutboxOf(OrderTopology.InstanceOf(o.Delivery)));
        var client = new BlobServiceClient(connectionString);
        var stored = 0;
        foreach (var container in expected.Values.Distinct())
        {
            var outbox = client.GetBlobContainerClient(container);
            if (!await outbox.ExistsAsync())
            {
                continue;
            }

            await foreach (var blob in outbox.GetBlobsAsync())
            {
                if (expected.TryGetValue(blob.Name, out var home))
                {
                    Assert.True(home == container, $"{container}/{blob.Name} is stored in the other outbox");
                    stored++;
                }
            }
        }

        return stored;
    }

    private sealed record OutageRun(
        bool Quiet,
        int Stored,
        int StoredAtRestore,
        int AcknowledgedUnstored,
        int Retried,
        int LeftPending,
        int HandedOutAgain,
        TimeSpan AfterRestore,
        TimeSpan Elapsed,
        IReadOnlyDictionary<string, IReadOnlyList<LoggedLine>> ReceiverLogs,
        IReadOnlyDictionary<string, int> ReceiverLinesAtRestore)
    {
        /// <summary>How long a burst as large took this trio, storage answering, just before.</summary>
        public TimeSpan CleanBurst { get; init; }

        /// <summary>When, after storage answered again, every order was seen stored; null if never.</summary>
        public TimeSpan? StoredAfterRestore { get; init; }

        /// <summary>The longest time after storage answered again that no more orders were stored.</summary>
        public TimeSpan LongestStall { get; init; }

        public string Timeline { get; init; } = "";

        public override string ToString() => string.Create(CultureInfo.InvariantCulture,
            $"{Stored}/{Orders} stored ({StoredAtRestore} when storage answered again), {AcknowledgedUnstored} " +
            $"acknowledged unstored, " +
            $"{Retried} answered RETRY, {LeftPending} left pending, {HandedOutAgain} handed out again, " +
            $"all stored {StoredAfterRestore?.TotalSeconds ?? double.NaN:0.0} s and " +
            $"quiet {AfterRestore.TotalSeconds:0.0} s " +
            $"after storage answered again, {Elapsed.TotalSeconds:0.0} s in all; a clean burst as large took " +
            $"{CleanBurst.TotalSeconds:0.0} s; the longest stand-still after it {LongestStall.TotalSeconds:0.0} s");
    }
}
