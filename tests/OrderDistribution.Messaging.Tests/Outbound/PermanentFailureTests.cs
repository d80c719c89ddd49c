using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Messaging.Tests.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The core's ways out in every model (bindings, pubsub-single, pubsub-bulk) against the sidecar emulator, for orders
/// the sidecar can never take and for a sidecar that refuses every order: one drop and one line for the first, never a
/// drop for the second.
/// </summary>
public sealed class PermanentFailureTests : IAsyncLifetime
{
    private EmulatedSidecar _sidecar = null!;

    public async ValueTask InitializeAsync() => _sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync() => await _sidecar.DisposeAsync();

    /// <param name="maxMessageBytes">Messaging:MaxMessageBytes, the broker's largest message.</param>
    /// <param name="descriptionLength">Makes the order over the sidecar's 4 MiB (5 MB) or over the broker's largest
    /// message.</param>
    [Theory]
    [InlineData(MessagingModel.PubSubBulk, 104_857_600, 5_000_000, "more than the sidecar takes")]
    [InlineData(MessagingModel.PubSubSingle, 104_857_600, 5_000_000, "more than the sidecar takes")]
    [InlineData(MessagingModel.Bindings, 104_857_600, 5_000_000, "more than the sidecar takes")]
    [InlineData(MessagingModel.PubSubBulk, 4_096, 10_000, "more than the broker's largest message")]
    [InlineData(MessagingModel.PubSubSingle, 4_096, 10_000, "more than the broker's largest message")]
    [InlineData(MessagingModel.Bindings, 4_096, 10_000, "more than the broker's largest message")]
    public async Task An_order_that_can_never_fit_is_never_sent_on_but_kept_cut_to_fit_on_the_dead_letter_queue(
        MessagingModel model, int maxMessageBytes, int descriptionLength, string reason)
    {
        // Bulks of a few: 250 messages of 100 MiB would make requests larger than the app can read.
        await using var app = await ForwardingAsync(
            ("Messaging:MaxMessageBytes", maxMessageBytes.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("Messaging:MaxMessagesCount", "5"));
        var client = await ReadyClientAsync(app);
        var large = TestOrders.Make(99, Delivery.Express, descriptionLength);

        var kept = await DeliverAsync(client, model, large);

        Assert.True(kept);
        var line = Assert.Single(app.Logs.AtLeast(LogLevel.Warning),
            l => l.Message.StartsWith("Dropped entry", StringComparison.Ordinal));
        var letter = Assert.Single(KeptLetters.At(_sidecar));
        Assert.Contains(reason, letter.Reason, StringComparison.Ordinal);
        Assert.True(letter.OmittedChars > 0, "the too-large order's letter says it left part of the body out");
        Assert.StartsWith("""{"OrderId":99,""", letter.Body, StringComparison.Ordinal);
        Assert.Contains("order 99 to q-order-express", line.Message, StringComparison.Ordinal);
        Assert.Contains(reason, line.Message, StringComparison.Ordinal);
        Assert.Null(line.Exception);
        // No message larger than the broker takes: the order is sent nowhere, its letter is cut to fit.
        Assert.DoesNotContain(_sidecar.Requests, r => r.Body.Length > maxMessageBytes
            && !r.Path.EndsWith($"/{OrderTopology.DeadLetterOutputBinding}", StringComparison.Ordinal)
            && !r.Path.EndsWith($"/{OrderTopology.DeadLetterQueue}", StringComparison.Ordinal));
        Assert.True(letter.Serialize().Length <= maxMessageBytes, "the letter fits the broker's largest message");
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/health")).StatusCode);
    }

    [Theory]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    [InlineData(MessagingModel.Bindings)]
    public async Task A_sidecar_that_refuses_every_order_gets_none_dropped_and_the_app_reports_not_ready_with_one_error(
        MessagingModel model)
    {
        _sidecar.BulkAnswer = _ => (401, "");
        _sidecar.PublishAnswer = _ => (401, "");
        _sidecar.BindingAnswer = _ =>
            (500, """{"errorCode":"ERR_INVOKE_OUTPUT_BINDING","message":"error invoking output binding """ +
            """q-order-express-output: couldn't find output binding q-order-express-output"}""");
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);

        Assert.False(await DeliverAsync(client, model, TestOrders.Make(1, Delivery.Express)));
        Assert.False(await DeliverAsync(client, model, TestOrders.Make(3, Delivery.Express)));

        await Eventually.StatusAsync(client, "/health", HttpStatusCode.ServiceUnavailable);
        Assert.DoesNotContain(app.Logs.Lines, l => l.Message.StartsWith("Dropped entry", StringComparison.Ordinal));
        var error = Assert.Single(app.Logs.AtLeast(LogLevel.Error));
        Assert.Contains("refuses every order", error.Message, StringComparison.Ordinal);

        _sidecar.BulkAnswer = _ => (200, "");
        _sidecar.PublishAnswer = null;
        _sidecar.BindingAnswer = null;
        Assert.False(await DeliverAsync(client, model, TestOrders.Make(5, Delivery.Express)));
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
    }

    [Theory]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    [InlineData(MessagingModel.Bindings)]
    public async Task A_sidecar_that_refuses_only_one_destination_is_logged_once_and_keeps_the_app_not_ready_meanwhile(
        MessagingModel model)
    {
        var refused = true;
        const string Forbidden = """{"errorCode":"ERR_PUBSUB_FORBIDDEN","message":"topic q-order-express is not """ +
            """allowed for app id distributor"}""";
        _sidecar.BulkAnswer = r => refused && r.Path.EndsWith("/q-order-express", StringComparison.Ordinal)
            ? (403, Forbidden)
            : (200, "");
        _sidecar.PublishAnswer = r => refused && r.Path.EndsWith("/q-order-express", StringComparison.Ordinal)
            ? (403, Forbidden)
            : null;
        _sidecar.BindingAnswer = r => refused && r.Path.EndsWith("/q-order-express-output", StringComparison.Ordinal)
            ? (500, """{"errorCode":"ERR_INVOKE_OUTPUT_BINDING","message":"error invoking output binding """ +
                """q-order-express-output: couldn't find output binding q-order-express-output"}""")
            : null;
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);

        // Express and standard orders in turn (and a standard neighbour in every bulk): the standard ones go through.
        for (var id = 1; id <= 6; id++)
        {
            Assert.False(await DeliverAsync(
                client, model, TestOrders.Make(id, id % 2 == 0 ? Delivery.Standard : Delivery.Express)));
        }

        await Eventually.StatusAsync(client, "/health", HttpStatusCode.ServiceUnavailable);
        var error = Assert.Single(app.Logs.AtLeast(LogLevel.Error));
        Assert.Contains("refuses every order to q-order-express", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(app.Logs.Lines, l => l.Message.Contains("takes orders", StringComparison.Ordinal));

        refused = false;
        Assert.False(await DeliverAsync(client, model, TestOrders.Make(7, Delivery.Express)));
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
        var fixedLine =
            Assert.Single(app.Logs.Lines, l => l.Message.Contains("takes orders", StringComparison.Ordinal));
        Assert.Contains("q-order-express", fixedLine.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(MessagingModel.PubSubSingle)]
    [InlineData(MessagingModel.Bindings)]
    public async Task An_order_the_sidecar_refuses_for_good_when_sent_alone_is_kept_on_the_dead_letter_queue(
        MessagingModel model)
    {
        _sidecar.PublishAnswer = ExpressRefused;
        _sidecar.BindingAnswer = ExpressRefused;
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);

        Assert.True(await DeliverAsync(client, model, TestOrders.Make(4, Delivery.Express)));

        var reason = Assert.Single(KeptLetters.At(_sidecar)).Reason;
        Assert.Contains("order 4 to q-order-express", reason, StringComparison.Ordinal);
        Assert.Contains("the sidecar refuses it for good", reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task In_pubsub_bulk_a_letter_too_large_for_a_bulk_publish_is_published_alone()
    {
        // Letters cut to 120,000 bytes; a bulk publish takes 131,072 with its 16 KiB envelope.
        await using var app = await ForwardingAsync(("Messaging:MaxMessageBytes", "120000"),
            ("Messaging:MaxBulkPublishBytes", "131072"));
        var client = await ReadyClientAsync(app);

        Assert.True(await DeliverAsync(client, MessagingModel.PubSubBulk,
            TestOrders.Make(6, Delivery.Express, descriptionLength: 200_000)));

        var letter = Assert.Single(_sidecar.Requests,
            r => r.Path.EndsWith($"/{OrderTopology.DeadLetterQueue}", StringComparison.Ordinal));
        Assert.Equal("/v1.0/publish/order-pubsub/q-order-deadletter", letter.Path);
        Assert.InRange(letter.Body.Length, 131_072 - OrderSizeLimit.RequestEnvelopeBytes + 1, 120_000);
    }

    [Fact]
    public async Task A_single_publish_of_an_order_and_of_its_dead_letter_both_send_the_payload_raw()
    {
        _sidecar.PublishAnswer = ExpressRefused;
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);

        Assert.True(await DeliverAsync(client, MessagingModel.PubSubSingle, TestOrders.Make(5, Delivery.Express)));

        var publishes = _sidecar.Requests.Where(r => r.Path.StartsWith("/v1.0/publish/", StringComparison.Ordinal))
            .ToList();
        Assert.Equal(["/v1.0/publish/order-pubsub/q-order-express", "/v1.0/publish/order-pubsub/q-order-deadletter"],
            publishes.Select(r => r.Path).Distinct());
        Assert.All(publishes, r => Assert.Equal("true", r.Query["metadata.rawPayload"]));
    }

    [Theory]
    [InlineData(MessagingModel.PubSubBulk, OrderTopology.DeadLetterQueue)]
    [InlineData(MessagingModel.PubSubSingle, OrderTopology.DeadLetterQueue)]
    [InlineData(MessagingModel.Bindings, OrderTopology.DeadLetterOutputBinding)]
    public async Task An_order_refused_for_good_whose_letter_is_not_kept_is_answered_RETRY_naming_why(
        MessagingModel model, string deadLetters)
    {
        // The dead-letter queue fails for now: a single publish or binding call 503, a bulk entry named as failed.
        _sidecar.PublishAnswer = r => r.Path.EndsWith($"/{deadLetters}", StringComparison.Ordinal)
            ? (503, "") : ExpressRefused(r);
        _sidecar.BindingAnswer = r => r.Path.EndsWith($"/{deadLetters}", StringComparison.Ordinal)
            ? (503, "") : ExpressRefused(r);
        _sidecar.BulkAnswer = r => r.Path.EndsWith($"/{deadLetters}", StringComparison.Ordinal)
            ? (500, JsonSerializer.Serialize(new
            {
                failedEntries = r.Json.EnumerateArray()
                    .Select(e => new { entryId = e.GetProperty("entryId").GetString(), error = "busy" }),
                errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE",
            }))
            : ExpressRefused(r) ?? (200, "");
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);

        Assert.Equal("RETRY", await AnswerAsync(client, model, TestOrders.Make(4, Delivery.Express)));

        Assert.True(app.Logs.AtLeast(LogLevel.Warning).Any(l => l.Message.Contains(
            $"keeping it on {deadLetters} failed (", StringComparison.Ordinal)),
            string.Join("\n", app.Logs.Lines.Select(l => l.Message)));
        Assert.DoesNotContain(app.Logs.Lines, l => l.Message.StartsWith("Dropped entry", StringComparison.Ordinal));
    }

    [Fact]
    public async Task An_order_refused_for_good_whose_letter_outlasts_the_requests_deadline_is_answered_RETRY()
    {
        _sidecar.PublishAnswer = r =>
        {
            if (!r.Path.EndsWith($"/{OrderTopology.DeadLetterQueue}", StringComparison.Ordinal))
            {
                return ExpressRefused(r);
            }

            Thread.Sleep(TimeSpan.FromSeconds(3));
            return null;
        };
        await using var app = await ForwardingAsync(("Messaging:RequestDeadline", "00:00:01"));
        var client = await ReadyClientAsync(app);

        var answer = await AnswerAsync(client, MessagingModel.PubSubSingle, TestOrders.Make(4, Delivery.Express));

        Assert.Equal("RETRY", answer);
        Assert.True(app.Logs.AtLeast(LogLevel.Warning).Any(l => l.Message.Contains(
            $"keeping it on {OrderTopology.DeadLetterQueue} was cut off by the request's deadline",
            StringComparison.Ordinal)), string.Join("\n", app.Logs.Lines.Select(l => l.Message)));
    }

    [Theory]
    [MemberData(nameof(Runtimes))]
    public async Task The_bindings_model_puts_no_transport_header_or_token_on_a_message_on_any_runtime(string version)
    {
        _sidecar.Runtime = DaprRuntimeProfile.All.Single(r => r.Version == version);
        await using var app = await ForwardingAsync(("DAPR_API_TOKEN", "secret-token"));
        var client = await ReadyClientAsync(app);

        await DeliverAsync(client, MessagingModel.Bindings, TestOrders.Make(2, Delivery.Standard));

        var message = Assert.Single(_sidecar.BindingMessages);
        Assert.Equal("q-order-standard-output", message.Binding);
        Assert.Empty(BrokerMessageHeaders.Forbidden(message.Metadata));
        Assert.Equal(2, OrderJson.Deserialize(message.Data).OrderId);
    }

    public static TheoryData<string> Runtimes() => new(DaprRuntimeProfile.All.Select(r => r.Version));

    private Task<EntryPointsHost> ForwardingAsync(params (string Key, string? Value)[] settings) =>
        EntryPointsHost.ForwardingAsync(_sidecar.Address, settings);

    private static async Task<HttpClient> ReadyClientAsync(EntryPointsHost app)
    {
        await Eventually.StatusAsync(app.Client, "/health", HttpStatusCode.OK);
        return app.Client;
    }

    private bool Kept(Order order) =>
        KeptLetters.At(_sidecar).Any(l =>
            l.Body.StartsWith($$"""{"OrderId":{{order.OrderId}},""", StringComparison.Ordinal));

    /// <summary>Sends one order in the model, with a valid neighbour in pubsub-bulk.</summary>
    /// <returns>Whether the order was answered as done and kept on the dead-letter queue.</returns>
    private async Task<bool> DeliverAsync(HttpClient client, MessagingModel model, Order order) =>
        await AnswerAsync(client, model, order) == "SUCCESS" && Kept(order);

    /// <returns>The order's answer: its status, or for a binding SUCCESS for 200 and RETRY for 503.</returns>
    private static async Task<string?> AnswerAsync(HttpClient client, MessagingModel model, Order order)
    {
        switch (model)
        {
            case MessagingModel.PubSubBulk:
                var neighbour = TestOrders.Make(order.OrderId + 1000, Delivery.Standard);
                var (body, entryIds) = BulkRequest.RawPayload([order, neighbour], "q-order-ingress");
                var statuses = await BulkRequest.StatusesAsync(
                    await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body)));
                return statuses[entryIds[0]];
            case MessagingModel.PubSubSingle:
                var cloudEvent = JsonSerializer.Serialize(new Dictionary<string, object>
                {
                    ["data_base64"] = Convert.ToBase64String(OrderJson.Serialize(order)),
                    ["datacontenttype"] = "application/octet-stream",
                    ["id"] = $"ce-{order.OrderId}",
                    ["specversion"] = "1.0",
                    ["topic"] = "q-order-ingress",
                    ["type"] = "com.dapr.event.sent",
                });
                using (var response = await client.PostAsync("/q-order-ingress-single",
                    new StringContent(cloudEvent, Encoding.UTF8, "application/cloudevents+json")))
                using (var answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync()))
                {
                    return answer.RootElement.GetProperty("status").GetString();
                }

            default:
                using (var response = await client.PostAsync("/q-order-ingress-input",
                    new ByteArrayContent(OrderJson.Serialize(order))))
                {
                    return response.StatusCode switch
                    {
                        HttpStatusCode.OK => "SUCCESS",
                        HttpStatusCode.ServiceUnavailable => "RETRY",
                        var other => other.ToString(),
                    };
                }
        }
    }

    /// <summary>413 to every call that sends an order to the express queue: the sidecar refuses it for good.</summary>
    private static (int Status, string Body)? ExpressRefused(SidecarRequest request) =>
        request.Path.EndsWith("/q-order-express", StringComparison.Ordinal)
        || request.Path.EndsWith("/q-order-express-output", StringComparison.Ordinal)
            ? (413, "grpc: received message larger than max (5000435 vs. 4194304)")
            : null;
}
