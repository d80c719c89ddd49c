using System.Net;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// How the receiver uses the blob SDK: the process's storage pipeline is the one retry layer, and neither the SDK
/// nor the store adds to the logs beyond one Warning line, without a stack trace, per failed write. (What Polly's
/// own telemetry logs is the pipeline's setting, shared with the sidecar's, and not asserted here.)
/// </summary>
public sealed class StorageClientTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task A_write_storage_keeps_refusing_is_tried_three_times_in_all_as_the_sdk_adds_no_retries_of_its_own()
    {
        var (answer, uploads, _) = await WriteOneOrderWhileStorageIsBusyAsync();

        Assert.Contains("\"RETRY\"", answer, StringComparison.Ordinal);
        // The pipeline's first try and its two retries; the SDK's default would have made each of them four.
        Assert.Equal(3, uploads);
    }

    [Fact]
    public async Task A_failed_write_is_logged_as_one_warning_line_without_a_stack_trace_naming_the_status()
    {
        var (_, _, logs) = await WriteOneOrderWhileStorageIsBusyAsync();

        // The delivery reports its failed entries in its one line.
        var appLines = logs.AtLeast(LogLevel.Warning)
            .Where(l => l.Category.StartsWith("OrderDistribution", StringComparison.Ordinal))
            .ToList();
        var line = Assert.Single(appLines);
        Assert.Equal(LogLevel.Warning, line.Level);
        Assert.Contains("503 ServerBusy: The server is busy", line.Message, StringComparison.Ordinal);
        Assert.True(line.Exception is null && !line.Message.Contains('\n', StringComparison.Ordinal),
            $"{line.Message} {line.Exception}");
        Assert.DoesNotContain(logs.Lines, l => l.Category.StartsWith("Azure", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Successful_writes_make_the_store_log_nothing_and_the_sdk_nothing_at_all()
    {
        using var app = Receiver(storage.Azurite.ConnectionString);
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
        var before = app.Logs.Lines.Count;
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(100), "q-order-express");

        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        Assert.DoesNotContain(app.Logs.Lines.Skip(before),
            l => l.Category.StartsWith("OrderDistribution.Receiver", StringComparison.Ordinal));
        Assert.DoesNotContain(app.Logs.Lines, l => l.Category.StartsWith("Azure", StringComparison.Ordinal));
    }

    /// <summary>
    /// One single delivery of order 7 to a receiver whose storage answers every upload 503 ServerBusy.
    /// </summary>
    private async Task<(string Answer, int Uploads, LogRecorder Logs)> WriteOneOrderWhileStorageIsBusyAsync()
    {
        await using var busy = await BlobEndpoint.StartAsync(Busy);
        using var app = Receiver(busy.ConnectionString);
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);

        var answer = await client.PostAsync("/q-order-express-single",
            BulkRequest.Json(SingleDelivery(TestOrders.Make(7, Delivery.Express))));

        return (await answer.Content.ReadAsStringAsync(), busy.Calls.Count(c => c == "PUT 7.json"), app.Logs);
    }

    private static string SingleDelivery(Order order) =>
        $$"""{"specversion":"1.0","id":"c""" +
        $$"""{{order.OrderId}}","type":"com.dapr.event.sent","data":{{TestOrders.Json(order)}}}""";

    private ReceiverFactory Receiver(string connectionString) =>
        new(connectionString, "express", [("Receiver:Container", _container), ("Readiness:Interval", "00:00:00.200")]);

    /// <summary>Containers exist; every upload is answered 503 ServerBusy.</summary>
    private static Task Busy(HttpContext context) => context.Request.Method == "PUT"
        ? BlobEndpoint.Error(context, StatusCodes.Status503ServiceUnavailable, "ServerBusy", "The server is busy.")
        : BlobEndpoint.Ok(context);
}
