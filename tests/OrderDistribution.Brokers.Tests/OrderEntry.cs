using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Brokers.Tests;

/// <summary>A message the size of what the sidecars write per order: the order's JSON in a CloudEvent.</summary>
internal static class OrderEntry
{
    public static byte[] For(long id)
    {
        var order = TestOrders.Json(
            TestOrders.Make(id, id % 2 == 0 ? Delivery.Express : Delivery.Standard, descriptionLength: 200));
        return System.Text.Encoding.UTF8.GetBytes(
            $$"""
            {"specversion":"1.0","id":"{{Guid.NewGuid()}}","source":"distributor","type":"com.dapr.event.sent",
             "datacontenttype":"application/json","topic":"q-order-express","pubsubname":"order-pubsub",
             "data":{{order}}}
            """);
    }
}
