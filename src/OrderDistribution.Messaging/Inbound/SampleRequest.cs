using System.Text;
using System.Text.Json;
using Dapr.AspNetCore;
using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// A bulk request of sample orders, one entry in each form the sidecar sends an order in (a JSON object, a CloudEvent
/// with <c>data</c> or <c>data_base64</c>, a base64 string), taken through the entry points' own reading, decoding and
/// answering: what an app runs at start (its warm-up) so that the first real request finds that code compiled.
/// </summary>
public static class SampleRequest
{
    /// <summary>Made per call, not held in a static field, so that each mutation test run reads its own.</summary>
    public static IReadOnlyList<Order> Orders =>
    [
        Sample(1, Delivery.Express),
        Sample(2, Delivery.Standard),
        Sample(3, Delivery.Express),
        Sample(4, Delivery.Standard),
    ];

    /// <summary>
    /// Reads and decodes the sample request and writes its answers, as the entry points do, to nowhere.
    /// </summary>
    /// <param name="answerOptions">The options the app's answers are written with (ASP.NET's JSON options).</param>
    /// <returns>The orders decoded from it (<see cref="Orders"/>), each with its entry's id.</returns>
    public static async Task<List<InboundOrder>> DecodeAsync(JsonSerializerOptions answerOptions,
        CancellationToken cancellationToken)
    {
        using var body = await JsonDocument.ParseAsync(new MemoryStream(Body()), default, cancellationToken);
        var message = BulkSubscribeMessageReader.Read(body, _ => { })
                      ?? throw new InvalidOperationException("The sample request is no bulk request.");
        var orders = message.Entries
            .Select(entry => new InboundOrder(entry.EntryId, CloudEventDecoder.Decode(entry.Event)))
            .ToList();
        await JsonSerializer.SerializeAsync(Stream.Null, new BulkSubscribeAppResponse(message.Entries
            .Select(entry => new BulkSubscribeAppResponseEntry(entry.EntryId, BulkSubscribeAppResponseStatus.SUCCESS))
            .ToList()), answerOptions, cancellationToken);
        await JsonSerializer.SerializeAsync(
            Stream.Null, new SingleRequestAnswer(BulkSubscribeAppResponseStatus.SUCCESS), answerOptions,
            cancellationToken);
        return orders;
    }

    private static byte[] Body()
    {
        var orders = Orders;
        var json = orders.Select(order => Encoding.UTF8.GetString(OrderJson.Serialize(order))).ToList();
        var base64 = orders.Select(order => Convert.ToBase64String(OrderJson.Serialize(order))).ToList();
        return Encoding.UTF8.GetBytes($$$"""
            {"topic":"warm-up","entries":[
              {"entryId":"1","contentType":"application/json","event":{{{json[0]}}}},
              {"entryId":"2","contentType":"application/cloudevents+json",
               "event":{"specversion":"1.0","id":"2","data":{{{json[1]}}}}},
              {"entryId":"3","contentType":"application/cloudevents+json",
               "event":{"specversion":"1.0","id":"3","data_base64":"{{{base64[2]}}}"}},
              {"entryId":"4","contentType":"application/octet-stream","event":"{{{base64[3]}}}"}
            ]}
            """);
    }

    private static Order Sample(long orderId, Delivery delivery) => new()
    {
        OrderId = orderId,
        OrderGuid = new Guid(0x5a3b1e00 + (int)orderId, 0, 0, [0, 0, 0, 0, 0, 0, 0, 1]),
        Description = "warm-up sample",
        FirstName = "Sample",
        LastName = "Order",
        Delivery = delivery,
        Items = [new OrderItem { OrderItemId = 1, SKU = "SAMPLE-1", Quantity = 1 },
            new OrderItem { OrderItemId = 2, SKU = "SAMPLE-2", Quantity = 2 }],
    };
}
