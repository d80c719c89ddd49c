using System.Diagnostics;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// A sidecar that stops answering: the circuit opens, so a request fails fast with one warning for the outage.
/// </summary>
public sealed class SidecarCircuitTests : RecordingSidecarTests
{
    [Fact]
    public async Task A_dead_sidecar_opens_the_circuit_so_a_large_bulk_fails_fast_instead_of_one_timeout_after_another()
    {
        Sidecar.Hang = new TaskCompletionSource().Task;
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
}
