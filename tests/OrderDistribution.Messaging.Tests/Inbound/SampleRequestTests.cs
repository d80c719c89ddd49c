using System.Text.Json;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The delivery the apps warm up with goes through the entry points' reading and decoding in every form.
/// </summary>
public sealed class SampleRequestTests
{
    [Fact]
    public async Task The_sample_request_decodes_back_into_its_orders_from_every_form_the_sidecar_sends()
    {
        var decoded = await SampleRequest.DecodeAsync(JsonSerializerOptions.Web, TestContext.Current.CancellationToken);

        Assert.Equal(
            SampleRequest.Orders.Select(o => Convert.ToBase64String(OrderJson.Serialize(o))),
            decoded.Select(o => Convert.ToBase64String(OrderJson.Serialize(o.Order))));
        Assert.Equal([Delivery.Express, Delivery.Standard], decoded.Select(o => o.Order.Delivery).Distinct());
        Assert.Equal(["1", "2", "3", "4"], decoded.Select(o => o.EntryId));
    }
}
