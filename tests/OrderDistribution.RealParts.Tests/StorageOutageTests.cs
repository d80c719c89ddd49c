using System.Diagnostics;
using System.Text.RegularExpressions;
using Azure.Storage.Blobs;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool;
using OrderDistribution.Messaging;
using StackExchange.Redis;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// Storage stopped cleanly (every call refused at once) mid-burst for longer than the inbound retry window, then back,
/// on real sidecars and Redis, on whichever runtime the fixture is given: from Dapr 1.17 pubsub.redis acknowledges a
/// message whose retries are spent while its context runs (docs/dapr-sidecar.md, "pubsub.redis after its retries are
/// spent"), and the shipped policy must leave no such message (docs/runtimes.md, "Retries of a request"). Storage is
/// reached through a proxy that can refuse every connection; the apps and the load tool both go through it.
/// </summary>
[Trait("Category", "RealParts")]
public sealed partial class StorageOutageTests
{
    private const int Orders = 2_000;

    /// <summary>The load tool's watch sees the last blob within a poll (at most 1 s) of its write.</summary>
    private static readonly TimeSpan WatchSlack = TimeSpan.FromSeconds(2);

    [Theory]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    public async Task Storage_refusing_every_call_past_the_retry_window_leaves_each_order_stored_30_s_after_its_return(
        MessagingModel model)
    {
        var ct = TestContext.Current.CancellationToken;
        var shipped = PubSubRetries.Shipped();
        // Longer than the former policy's 15 s of retries and than a delivery's whole context.
        var outage = shipped.ProcessingTimeout + TimeSpan.FromSeconds(30);
        var storage = new RefusableStorage(await RealParts.RequireAsync());
        await using var trio = await RealTrio.StartAsync(storage, model, apiToken: null, ct);
        TestContext.Current.TestOutputHelper?.WriteLine(trio.Description);
        using var load = new OrderLoad(trio);
        try
        {
            var burst = load.BurstAsync(Orders, seed: 34, timeoutSeconds: 300);
            while (await CountStoredAsync(storage.Direct, ct) < 100)
            {
                Assert.False(burst.IsCompleted, "the burst ended before storage could be stopped in it");
                await Task.Delay(100, ct);
            }

            storage.Proxy.Refusing = true;
            await using var redis = trio.Parts.RedisForTests is { } address
                ? await ConnectionMultiplexer.ConnectAsync(address)
                : null;
            await using var timeline = new OutageTimeline(Orders, () => CountStoredAsync(storage.Direct, ct),
                () => SampleAsync(trio, redis));
            await Task.Delay(outage, ct);
            storage.Proxy.Refusing = false;
            timeline.StorageBack();
            var sinceBack = Stopwatch.StartNew();

            // The outage outlasts the tool's default lease too: it must wait it out as the trio does.
            var result = await burst;
            var afterBack = sinceBack.Elapsed;
            await timeline.DisposeAsync();
            var stored = await CountStoredAsync(storage.Direct, ct);
            var verdict = result.ExitCode switch
            {
                ExitCodes.Done => null,
                ExitCodes.Incomplete =>
                    $"the trio did not store every order before the tool's timeout: {stored} of {Orders} stored (the " +
                    $"load tool: exit 1, \"{LastLine(result.Output)}\")",
                _ => $"the load tool gave up, not the trio: exit {result.ExitCode}, \"{LastLine(result.Output)}\"; " +
                    $"the trio had stored {stored} of {Orders} orders",
            };
            Assert.True(verdict is null, $"{verdict}\n{timeline}");
            result.AssertExact(valid: Orders, poison: 0);
            // The trio's part and the tool's apart: the trio stored the last order (seen by the test's own count, a
            // second at a time), then the tool saw it.
            var trioTook = timeline.AllStoredAfterBack;
            Assert.True(trioTook <= TimeSpan.FromSeconds(30) + Sampling,
                $"the trio stored the rest of the burst {Seconds(trioTook)} s after storage answered again\n" +
                $"{timeline}");
            Assert.True(afterBack <= TimeSpan.FromSeconds(30) + WatchSlack,
                $"the load tool saw the rest of the burst {afterBack.TotalSeconds:0.0} s after storage answered " +
                $"again, the trio had stored it after {Seconds(trioTook)} s\n{timeline}");
            foreach (var receiver in new[] { Contract.ReceiverExpress, Contract.ReceiverStandard })
            {
                AssertLoggedAsOneOutage(trio.App(receiver), outage + afterBack);
            }
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            TestContext.Current.TestOutputHelper?.WriteLine(await LastLinesAsync(trio));
            throw;
        }
    }

    /// <summary>The test's own count of what is stored, taken once a second.</summary>
    private static readonly TimeSpan Sampling = TimeSpan.FromSeconds(1);

    /// <summary>What each stream's group still holds (XPENDING) and each receiver's RETRY and breaker lines.</summary>
    private static async Task<string> SampleAsync(RealTrio trio, ConnectionMultiplexer? redis)
    {
        var streams = new List<string>();
        if (redis is not null)
        {
            var groups = new[]
            {
                (OrderTopology.IngressQueue, Contract.Distributor),
                (OrderTopology.QueueOf("express"), Contract.ReceiverExpress),
                (OrderTopology.QueueOf("standard"), Contract.ReceiverStandard),
            };
            foreach (var (stream, group) in groups)
            {
                try
                {
                    var pending = await redis.GetDatabase().StreamPendingAsync(stream, group);
                    streams.Add($"{stream}: {pending.PendingMessageCount} pending");
                }
                catch (RedisServerException e)
                {
                    streams.Add($"{stream}: {e.Message}");
                }
            }
        }

        return string.Join("; ", streams.Concat(new[] { Contract.ReceiverExpress, Contract.ReceiverStandard }
            .Select(id => OutageTimeline.ReceiverLines(id, trio.App(id).Logs))));
    }

    private static string Seconds(TimeSpan? took) =>
        took?.TotalSeconds.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture) ?? "(not all yet)";

    /// <summary>At most one warning per 5 s while it lasts, and a closing line with the count.</summary>
    private static void AssertLoggedAsOneOutage(InProcessApp receiver, TimeSpan lasted)
    {
        var warnings = receiver.Logs.AtLeast(LogLevel.Warning)
            .Where(l => l.Category.StartsWith("OrderDistribution", StringComparison.Ordinal)).ToList();
        var allowed = (int)(lasted / TimeSpan.FromSeconds(5)) + 2;
        Assert.True(warnings.Count <= allowed, $"{receiver.AppId}: {warnings.Count} warnings, at most {allowed}");
        Assert.Contains(receiver.Logs.AtLeast(LogLevel.Information), l => OutageEnded().IsMatch(l.Message));
    }

    private static string LastLine(string output) =>
        output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault()
            ?? "(nothing printed)";

    private static async Task<string> LastLinesAsync(RealTrio trio)
    {
        var apps = new[] { Contract.Distributor, Contract.ReceiverExpress, Contract.ReceiverStandard }.Select(id =>
            $"{id}:\n{string.Join('\n', trio.App(id).Logs.AtLeast(LogLevel.Information).TakeLast(15)
                .Select(l => l.Message))}");
        return $"daprd of {Contract.Distributor}:\n{await trio.DistributorSidecar.LogTailAsync()}\n" +
            string.Join('\n', apps);
    }

    private static async Task<int> CountStoredAsync(string connectionString, CancellationToken ct)
    {
        var client = new BlobServiceClient(connectionString);
        var count = 0;
        foreach (var name in OrderTopology.Outboxes)
        {
            var outbox = client.GetBlobContainerClient(name);
            if (!await outbox.ExistsAsync(ct))
            {
                continue;
            }

            await foreach (var _ in outbox.GetBlobsAsync(cancellationToken: ct))
            {
                count++;
            }
        }

        return count;
    }

    [GeneratedRegex(@"are answered again: for [0-9.]+ s, [1-9][0-9]* requests were answered RETRY")]
    private static partial Regex OutageEnded();

    /// <summary>
    /// The back-end's parts, with storage behind a proxy that can refuse every call (<see
    /// cref="TcpCutProxy.Refusing"/>).
    /// </summary>
    private sealed partial class RefusableStorage(IRealPartsBackend backend) : IRealPartsBackend
    {
        private TcpCutProxy? _proxy;

        public string Description =>
            $"{backend.Description}; storage through a proxy that refuses every call during the outage";

        public TcpCutProxy Proxy => _proxy ?? throw new InvalidOperationException("The parts have not started.");

        /// <summary>Storage without the proxy, for the test's own count.</summary>
        public string Direct { get; private set; } = "";

        public async Task<StartedParts> StartPartsAsync(MessagingModel model, CancellationToken ct)
        {
            var parts = await backend.StartPartsAsync(model, ct);
            Direct = parts.StorageConnectionString;
            var port = BlobPort().Match(Direct) is { Success: true } match
                ? int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)
                : throw new InvalidOperationException($"No blob endpoint port in {Direct}");
            _proxy = new TcpCutProxy(port);
            return parts with { StorageConnectionString = Azurite.ConnectionStringFor(_proxy.Port) };
        }

        public Task<RunningSidecar> StartSidecarAsync(SidecarLaunch launch, CancellationToken ct) =>
            backend.StartSidecarAsync(launch, ct);

        public async ValueTask DisposeAsync()
        {
            _proxy?.Dispose();
            await backend.DisposeAsync();
        }

        [GeneratedRegex(@"BlobEndpoint=https?://[^:/;]+:(\d+)")]
        private static partial Regex BlobPort();
    }
}
