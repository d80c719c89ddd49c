using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;
using System.Text.Json;
using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator.Tests.Broker;

/// <summary>Each model's delivery, settled in the broker as the real sidecar and broker settle it.</summary>
public sealed class DeliveryTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(20);

    private static readonly EmulatedSidecarOptions Quick = new()
    {
        RetryInterval = TimeSpan.FromMilliseconds(50),
        RedeliverInterval = TimeSpan.FromMilliseconds(50),
        ConcurrentBindingRequests = 1,
        ConcurrentSingleRequests = 1,
        ConcurrentBulkRequests = 1,
    };

    [Fact]
    public async Task A_binding_answered_400_is_requeued_as_rabbitmq_requeues_it_never_dead_lettered()
    {
        await using var app = await FakeApp.StartAsync();
        app.Answer = (n, _) => (n < 3 ? 400 : 200, null);
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick);

        sidecar.Subscribe("q", app.Client, MessagingModel.Bindings, "in");
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);

        Assert.True(await sidecar.WaitUntilQuietAsync(Wait));
        Assert.Equal(0, sidecar.Queues["q"].Dropped);
        Assert.Equal(3, app.Bodies.Count);
    }

    [Theory]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    public async Task A_drop_is_discarded_when_the_subscription_declares_no_dead_letter_topic(MessagingModel model)
    {
        await using var app = await FakeApp.StartAsync();
        app.Answer = (_, body) => (200, Drop(model, body));
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick);
        var deadLetters = sidecar.Keep("q-dead");

        sidecar.Subscribe("q", app.Client, model);
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);

        Assert.True(await sidecar.WaitUntilQuietAsync(Wait));
        Assert.Equal((1, 0), (sidecar.Queues["q"].Dropped, sidecar.Queues["q"].DeadLettered));
        Assert.Empty(deadLetters);
        Assert.Single(app.Bodies);
    }

    [Theory]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    public async Task A_drop_goes_as_it_was_published_to_the_dead_letter_topic_the_subscription_declares(
        MessagingModel model)
    {
        await using var app = await FakeApp.StartAsync();
        app.Answer = (_, body) => (200, Drop(model, body));
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick);
        var deadLetters = sidecar.Keep("q-dead");

        sidecar.Subscribe("q", app.Client, model, deadLetterTopic: "q-dead");
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);

        Assert.True(await sidecar.WaitUntilQuietAsync(Wait));
        Assert.Equal((1, 1), (sidecar.Queues["q"].Dropped, sidecar.Queues["q"].DeadLettered));
        Assert.Equal("""{"id":1}""", Encoding.UTF8.GetString(Assert.Single(deadLetters)));
        Assert.Single(app.Bodies);
    }

    /// <summary>Every entry of the request answered DROP, in the model's answer.</summary>
    private static string Drop(MessagingModel model, string body) =>
        model == MessagingModel.PubSubSingle
            ? """{"status":"DROP"}"""
            : JsonSerializer.Serialize(new
            {
                statuses = JsonDocument.Parse(body).RootElement.GetProperty("entries").EnumerateArray()
                    .Select(e => new { entryId = e.GetProperty("entryId").GetString(), status = "DROP" }),
            });

    [Fact]
    public async Task A_binding_answered_500_is_requeued_until_the_app_takes_it()
    {
        await using var app = await FakeApp.StartAsync();
        app.Answer = (n, _) => (n < 3 ? 500 : 204, null);
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick);

        sidecar.Subscribe("q", app.Client, MessagingModel.Bindings, "in");
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);

        Assert.True(await sidecar.WaitUntilQuietAsync(Wait));
        Assert.Equal(2, sidecar.Queues["q"].Retried);
        Assert.Equal(0, sidecar.Queues["q"].Dropped);
        Assert.Equal(3, app.Bodies.Count);
    }

    [Fact]
    public async Task A_bulk_entry_the_answer_does_not_name_is_delivered_again_and_the_named_ones_are_not()
    {
        await using var app = await FakeApp.StartAsync();
        // The first request names only its first entry SUCCESS; every later one is answered SUCCESS in full.
        app.Answer = (n, body) => (200, Statuses(body, n == 1 ? 1 : int.MaxValue));
        await using var sidecar =
            await EmulatedSidecar.StartAsync(Quick with { MaxAwait = TimeSpan.FromMilliseconds(200) });

        sidecar.Subscribe("q", app.Client, MessagingModel.PubSubBulk);
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}"""), Encoding.UTF8.GetBytes("""{"id":2}""")]);

        Assert.True(await sidecar.WaitUntilQuietAsync(Wait));
        Assert.Equal(1, sidecar.Queues["q"].Retried);
        Assert.Equal([2, 1], app.Bodies.Select(EntryCount));
    }

    [Theory]
    [InlineData("1.16", 0)]
    [InlineData("1.17", 1)]
    public async Task A_pubsub_message_whose_retries_are_spent_is_kept_pending_before_117_and_acknowledged_from_117(
        string runtime, int acknowledged)
    {
        await using var app = await FakeApp.StartAsync();
        app.Answer = (_, _) => (200, """{"status":"RETRY"}""");
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick with
        {
            MaxRetries = 1,
            ProcessingTimeout = TimeSpan.FromMilliseconds(500),
            Runtime = DaprRuntimeProfile.Of(runtime),
        });

        sidecar.Subscribe("q", app.Client, MessagingModel.PubSubSingle);
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);

        var quiet = await sidecar.WaitUntilQuietAsync(TimeSpan.FromSeconds(3));
        Assert.Equal(acknowledged == 1, quiet);
        Assert.Equal(acknowledged, sidecar.Queues["q"].AcknowledgedUnstored);
        if (acknowledged == 0)
        {
            // Kept in the broker and handed out again after processingTimeout, again and again.
            Assert.True(sidecar.Queues["q"].LeftPending > 0 && sidecar.Queues["q"].HandedOutAgain > 0);
        }
    }

    [Theory]
    [InlineData("1.17", null, false)]
    [InlineData("1.19", null, true)]
    [InlineData("1.19", 0, false)]
    public async Task A_message_whose_context_ended_waits_processing_timeout_more_where_redis_kept_it_alive(
        string runtime, int? keepAliveMs, bool waits)
    {
        var processingTimeout = TimeSpan.FromSeconds(1);
        var delivered = new ConcurrentQueue<long>();
        await using var app = await FakeApp.StartAsync();
        app.Answer = (_, _) =>
        {
            delivered.Enqueue(Stopwatch.GetTimestamp());
            return (200, """{"status":"RETRY"}""");
        };
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick with
        {
            ProcessingTimeout = processingTimeout,
            EntryKeepAliveInterval = keepAliveMs is { } ms ? TimeSpan.FromMilliseconds(ms) : null,
            Runtime = DaprRuntimeProfile.Of(runtime),
        });

        sidecar.Subscribe("q", app.Client, MessagingModel.PubSubSingle);
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);
        var until = Stopwatch.StartNew();
        while (!(sidecar.Queues["q"].HandedOutAgain > 0 && delivered.Count > 20) && until.Elapsed < Wait)
        {
            await Task.Delay(50);
        }

        Assert.True(sidecar.Queues["q"].HandedOutAgain > 0, "the message was never handed out again");

        // Retried every 50 ms inside a context; the longest pause is from the context's end to the next hand-out.
        var times = delivered.ToArray();
        var longestPause = times.Zip(times.Skip(1), (a, b) => Stopwatch.GetElapsedTime(a, b)).Max();
        if (waits)
        {
            Assert.True(longestPause >= processingTimeout * 0.9, $"the longest pause was {longestPause}");
        }
        else
        {
            Assert.True(longestPause < processingTimeout / 2, $"the longest pause was {longestPause}");
        }
    }

    [Theory]
    [InlineData("1.14", true)]
    [InlineData("1.17", true)]
    [InlineData("1.19", false)]
    public async Task A_single_delivery_retried_past_its_context_runs_on_beside_copies_before_1185_alone_from_119(
        string runtime, bool copies)
    {
        var processingTimeout = TimeSpan.FromMilliseconds(500);
        var takenFrom = TimeSpan.FromSeconds(1.7);
        var clock = Stopwatch.StartNew();
        var deliveries = 0;
        var taken = 0;
        await using var app = await FakeApp.StartAsync();
        app.Answer = (_, _) =>
        {
            Interlocked.Increment(ref deliveries);
            if (clock.Elapsed < takenFrom)
            {
                return (200, """{"status":"RETRY"}""");
            }

            Interlocked.Increment(ref taken);
            return (200, null);
        };
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick with
        {
            ProcessingTimeout = processingTimeout,
            EntryKeepAliveInterval = TimeSpan.Zero,
            ConcurrentSingleRequests = 4,
            Runtime = DaprRuntimeProfile.Of(runtime),
        });

        sidecar.Subscribe("q", app.Client, MessagingModel.PubSubSingle);
        sidecar.Enqueue("q", [Encoding.UTF8.GetBytes("""{"id":1}""")]);

        Assert.True(await sidecar.WaitUntilQuietAsync(Wait), "the message was still outstanding");
        var afterQuiet = Volatile.Read(ref deliveries);
        await Task.Delay(processingTimeout * 2, TestContext.Current.CancellationToken);
        Assert.Equal(afterQuiet, Volatile.Read(ref deliveries));
        var report = sidecar.Queues["q"];
        Assert.True(report.HandedOutAgain > 0, "the message was never handed out again");
        if (copies)
        {
            // Redis handed the entry out again while the first delivery retried on: each copy is taken in its turn.
            Assert.True(taken >= 2, $"taken {taken} times, handed out again {report.HandedOutAgain} times");
        }
        else
        {
            Assert.Equal(1, taken);
        }
    }

    [Fact]
    public async Task A_model_the_emulator_has_no_delivery_for_is_refused()
    {
        await using var app = await FakeApp.StartAsync();
        await using var sidecar = await EmulatedSidecar.StartAsync(Quick);

        Assert.Throws<ArgumentOutOfRangeException>(() => sidecar.Subscribe("q", app.Client, (MessagingModel)42, "in"));
    }

    private static string Statuses(string bulk, int successes)
    {
        using var document = JsonDocument.Parse(bulk);
        var statuses = document.RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => e.GetProperty("entryId").GetString()!)
            .Take(successes)
            .Select(entryId => new { entryId, status = "SUCCESS" });
        return JsonSerializer.Serialize(new { statuses });
    }

    private static int EntryCount(string bulk)
    {
        using var document = JsonDocument.Parse(bulk);
        return document.RootElement.GetProperty("entries").GetArrayLength();
    }
}
