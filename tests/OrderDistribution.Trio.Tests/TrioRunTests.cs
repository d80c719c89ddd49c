using OrderDistribution.Messaging;
using OrderDistribution.TrioHarness;

namespace OrderDistribution.Trio.Tests;

/// <summary>
/// The whole trio in-process behind the sidecar emulator (a stand-in for the Dapr sidecar and broker), into a real
/// Azurite: the proof that no order is lost or stored twice whatever the sidecar, the broker or storage does. The
/// benchmark runs the same at 10,000 orders (dotnet run -c Release --project tests/OrderDistribution.Benchmarks --
/// fault).
/// </summary>
[Collection(TrioRuns.Name)]
public sealed class TrioRunTests
{
    [Fact]
    public async Task A_thousand_orders_with_failing_publishes_and_writes_duplicates_and_poison_end_as_the_valid_blobs()
    {
        var report = await TrioRun.RunAsync(new TrioRunOptions
        {
            Orders = 1_000,
            PublishFailureRate = 0.05,
            WriteFailureRate = 0.05,
            DeliverEveryMessageTwice = true,
            PoisonRate = 0.01,
            RetryInterval = TimeSpan.FromMilliseconds(100),
            Timeout = TimeSpan.FromMinutes(3),
        });

        Assert.True(report.Quiet, $"messages were still outstanding after 3 minutes. {report.Details}");
        Assert.Equal(10, report.Poison);
        Assert.Equal(report.Valid, report.Stored);
        Assert.Equal(0, report.Lost);
        Assert.Equal(0, report.Duplicated);
        Assert.Equal(0, report.Misplaced);
        Assert.Equal(0, report.ValidDropped);
        Assert.Equal(report.Poison, report.PoisonDropped);
        Assert.Equal(report.DropStatuses, report.DropLogLines);
        Assert.True(report.AnsweredWithinDeadline, report.Details);
        Assert.True(report.PublishesRefused > 0 && report.Retries > 0, $"the faults did not happen. {report.Details}");
    }

    [Fact]
    public async Task In_pubsub_single_with_500_requests_at_once_per_app_every_order_is_stored_once_without_a_retry()
    {
        // RETRY is the right answer to a store slower than the time limits, as on a loaded machine: limits far above
        // Azurite's pace leave a RETRY to count only if the apps turned requests away for being many at once.
        var report = await TrioRun.RunAsync(
            new TrioRunOptions
            {
                Orders = 1_000,
                Model = MessagingModel.PubSubSingle,
                ConcurrentSingleRequests = 500,
                ProcessingTimeout = TimeSpan.FromSeconds(60),
                Settings = new Dictionary<string, string?>
                {
                    ["Messaging:RequestDeadline"] = "00:00:45",
                    ["Storage:RequestTimeout"] = "00:00:30",
                    ["Dapr:RequestTimeout"] = "00:00:30",
                },
                Timeout = TimeSpan.FromMinutes(3)
            });

        Assert.True(report.Quiet, $"messages were still outstanding after 3 minutes. {report.Details}");
        Assert.Equal(1_000, report.Stored);
        Assert.Equal(0, report.Lost);
        Assert.Equal(0, report.Duplicated);
        Assert.True(report.Retries == 0, $"entries were answered RETRY. {report.Details}");
        Assert.Equal(TimeSpan.FromSeconds(45), report.Deadline);
    }
}
