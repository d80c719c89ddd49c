using System.Text.Json;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// Orders in JSON strings, as the sidecar and other writers of JSON may escape them, decode to the same order.
/// </summary>
public sealed class CloudEventDecoderTests
{
    private static readonly Order Order = TestOrders.Make(42, Delivery.Standard, descriptionLength: 300);

    [Fact]
    public void A_base64_event_written_with_every_character_escaped_decodes_to_its_order()
    {
        var base64 = Convert.ToBase64String(OrderJson.Serialize(Order));

        var decoded = CloudEventDecoder.Decode(Element($"\"{string.Concat(base64.Select(c => $"\\u{(int)c:X4}"))}\""));

        Assert.Equal(TestOrders.Json(Order), TestOrders.Json(decoded));
    }

    [Fact]
    public void Data_base64_of_a_CloudEvent_decodes_to_its_order_and_anything_else_there_is_no_order()
    {
        var base64 = Convert.ToBase64String(OrderJson.Serialize(Order)).Replace("/", "\\/", StringComparison.Ordinal);

        var decoded = CloudEventDecoder.Decode(Element($$"""{"specversion":"1.0","data_base64":"{{base64}}"}"""));
        var notBase64 = Assert.Throws<InvalidOrderException>(() => CloudEventDecoder.Decode(
            Element($$"""{"specversion":"1.0","data_base64":{{JsonSerializer.Serialize(TestOrders.Json(Order))}}}""")));

        Assert.Equal(TestOrders.Json(Order), TestOrders.Json(decoded));
        Assert.Equal("not an order: data_base64 is not base64", notBase64.Message);
    }

    [Fact]
    public void An_order_carried_as_a_JSON_string_decodes_to_that_order()
    {
        var decoded = CloudEventDecoder.Decode(Element(JsonSerializer.Serialize(TestOrders.Json(Order))));

        Assert.Equal(TestOrders.Json(Order), TestOrders.Json(decoded));
    }

    [Theory]
    [InlineData("\"\"")]
    [InlineData("\"bm90IGpzb24=\"")]
    [InlineData("\"\\uD800abc\"")]
    public void A_string_that_holds_no_order_is_refused_as_no_order(string json) =>
        Assert.StartsWith("not an order:",
            Assert.Throws<InvalidOrderException>(() => CloudEventDecoder.Decode(Element(json))).Message,
            StringComparison.Ordinal);

    [Theory]
    [InlineData("5")]
    [InlineData("null")]
    [InlineData("""{"OrderId":42}""")]
    public void A_data_base64_that_is_not_a_string_is_refused_as_not_base64(string value) =>
        Assert.Equal("not an order: data_base64 is not base64", Assert.Throws<InvalidOrderException>(() =>
            CloudEventDecoder.Decode(Element($$"""{"specversion":"1.0","data_base64":{{value}}}"""))).Message);

    [Fact]
    public void An_object_with_a_specversion_but_no_data_is_no_CloudEvent_but_read_as_it_is()
    {
        var json = $$"""{"specversion":"1.0",{{TestOrders.Json(Order)[1..]}}""";

        var decoded = CloudEventDecoder.Decode(Element(json));

        Assert.Equal(TestOrders.Json(Order), TestOrders.Json(decoded));
        Assert.Equal(json, System.Text.Encoding.UTF8.GetString(CloudEventDecoder.PayloadOf(Element(json))));
    }

    private static JsonElement Element(string json) => JsonDocument.Parse(json).RootElement;
}
