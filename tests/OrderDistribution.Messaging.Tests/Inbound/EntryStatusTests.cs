using System.Net;
using System.Text.Json;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// Each entry of a request decided on its own: poison dropped one by one beside its valid neighbours, and the
/// sidecar's answer to a publish trusted no further than it says.
/// </summary>
public sealed class EntryStatusTests : RecordingSidecarTests
{
    [Fact]
    public async Task Poison_entries_are_dead_lettered_one_by_one_and_their_valid_neighbours_are_published_once()
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
            [("e1", "SUCCESS"), ("7", "SUCCESS"), ("e4", "SUCCESS"), ("e5", "SUCCESS"), ("e6", "SUCCESS"),
                ("e8", "SUCCESS"), ("e9", "SUCCESS")],
            statuses);
        Assert.Equal([1, 7, 9], PublishedOrderIds().Order());
        var warnings = app.Logs.AtLeast(LogLevel.Warning).Select(l => l.Message).ToList();
        Assert.Contains(warnings, w => w.Contains("position 1", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.Contains("position 3", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.Contains("position 9", StringComparison.Ordinal));
        foreach (var dropped in new[] { "e4", "e5", "e6", "e8" })
        {
            Assert.Contains(warnings,
                w => w.StartsWith($"Dropped entry {dropped} from q-order-ingress, kept on q-order-deadletter:",
                    StringComparison.Ordinal));
        }

        // Each kept once, as a dead letter published to the dead-letter topic, the not-JSON one with its text.
        var letters = KeptLetters.At(Sidecar);
        Assert.Equal(["e4", "e5", "e6", "e8"], letters.Select(l => l.EntryId).Order(StringComparer.Ordinal));
        Assert.Equal("not json at all", Assert.Single(letters, l => l.EntryId == "e6").Body);

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/health")).StatusCode);
    }

    [Fact]
    public async Task Only_the_entries_a_2xx_answer_names_as_failed_are_answered_RETRY()
    {
        Sidecar.BulkAnswer = request =>
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
        Sidecar.BulkAnswer = _ => (status, answer);
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
        var publishes = Sidecar.Requests.Where(r =>
            r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)).ToList();
        Assert.True(publishes.Count > 2, "the budget should have split the bulk");
        Assert.All(publishes, p => Assert.Equal("4096", p.Query["metadata.maxBulkPubBytes"]));
        Assert.All(publishes,
            p => Assert.True(p.Body.Length <= 4096, $"a request of {p.Body.Length} bytes exceeds the budget"));
    }

    [Fact]
    public async Task A_refused_single_publish_is_answered_RETRY_with_one_warning_naming_the_sidecars_own_reason()
    {
        Sidecar.PublishAnswer = _ => (500, "chosen to fail");
        await using var app = await ForwardingAsync(("Messaging:Model", "pubsub-single"));
        var client = app.Client;
        var order = TestOrders.Json(TestOrders.Make(3, Delivery.Standard));

        var response = await client.PostAsync("/q-order-ingress-single",
            BulkRequest.Json($$"""{"specversion":"1.0","id":"c3","type":"com.dapr.event.sent","data":{{order}}}"""));

        Assert.Equal("RETRY", await BulkRequest.StatusAsync(response));
        var warning = Assert.Single(app.Logs.AtLeast(LogLevel.Warning));
        Assert.EndsWith(
            "first failure: c3: forwarding order 3 to q-order-standard failed: Internal: 500 chosen to fail",
            warning.Message, StringComparison.Ordinal);
        Assert.Null(warning.Exception);
        // The category retry-drop.kql and the workbook read, and Application Insights is sent.
        Assert.Equal("OrderDistribution.Messaging.Inbound.RequestRun", warning.Category);
    }

    private static string FirstEntryId(SidecarRequest request) => request.Json[0].GetProperty("entryId").GetString()!;

    private IEnumerable<long> PublishedOrderIds() =>
        Sidecar.Requests
            .Where(r => r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)
                        && !r.Path.EndsWith($"/{OrderTopology.DeadLetterQueue}", StringComparison.Ordinal))
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
