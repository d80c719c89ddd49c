using System.Text;
using System.Text.Json;

namespace OrderDistribution.Contracts.Tests;

/// <summary>An order's JSON: what it looks like on the wire, and the orders it refuses.</summary>
public sealed class OrderJsonTests
{
    private static readonly Order Valid = new()
    {
        OrderId = 1000001,
        OrderGuid = Guid.Parse("6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e"),
        Description = "two books",
        FirstName = "Ada",
        LastName = "Lovelace",
        Delivery = Delivery.Standard,
        Items = [new OrderItem { OrderItemId = 1, SKU = "1234-5678-9012", Quantity = 2 }],
    };

    [Fact]
    public void A_valid_order_round_trips_through_its_JSON_unchanged()
    {
        var read = OrderJson.Deserialize(OrderJson.Serialize(Valid));

        Assert.Equal(Valid with { Items = [] }, read with { Items = [] });
        Assert.Equal(Valid.Items, read.Items);
    }

    [Fact]
    public void A_valid_order_round_trips_through_a_JSON_element_unchanged()
    {
        using var document = JsonDocument.Parse(OrderJson.Serialize(Valid));

        var read = OrderJson.Deserialize(document.RootElement);

        Assert.Equal(Valid with { Items = [] }, read with { Items = [] });
        Assert.Equal(Valid.Items, read.Items);
    }

    [Fact]
    public void An_order_is_written_PascalCase_with_its_delivery_as_a_string()
    {
        using var document = JsonDocument.Parse(OrderJson.Serialize(Valid));

        Assert.Equal(
            ["OrderId", "OrderGuid", "Description", "FirstName", "LastName", "Delivery", "Items"],
            document.RootElement.EnumerateObject().Select(property => property.Name));
        Assert.Equal("Standard", document.RootElement.GetProperty("Delivery").GetString());
    }

    [Fact]
    public void An_order_written_in_another_case_is_read_all_the_same()
    {
        var read = OrderJson.Deserialize("""
            {"orderId":7,"orderguid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","DELIVERY":"express"}
            """u8);

        Assert.Equal((7L, Delivery.Express), (read.OrderId, read.Delivery));
    }

    public static TheoryData<string, string> InvalidOrders() => new()
    {
        { """{"OrderId":0,"OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","Delivery":"Express"}""", "OrderId" },
        { """{"OrderId":-3,"OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","Delivery":"Express"}""", "OrderId" },
        { """{"OrderId":7,"OrderGuid":"00000000-0000-0000-0000-000000000000","Delivery":"Express"}""", "OrderGuid" },
        { """{"OrderId":7,"OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","Delivery":99}""", "Delivery" },
        { """{"OrderId":7,"OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","Delivery":"Overnight"}""", "Delivery" },
        { """{"OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","Delivery":"Express"}""", "OrderId" },
        { """{"OrderId":7,"Delivery":"Express"}""", "OrderGuid" },
        { """{"OrderId":7,"OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e"}""", "Delivery" },
        { """{"OrderId":"seven","OrderGuid":"6c1f6a6e-8a55-4c43-9a3e-3f2b0b1c2d4e","Delivery":"Express"}""",
            "OrderId" },
    };

    [Theory]
    [MemberData(nameof(InvalidOrders))]
    public void An_invalid_order_is_refused_with_a_message_naming_the_field(string json, string field)
    {
        var refusal = Assert.Throws<InvalidOrderException>(() => OrderJson.Deserialize(Encoding.UTF8.GetBytes(json)));

        Assert.Contains(field, refusal.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [MemberData(nameof(InvalidOrders))]
    public void An_invalid_order_in_a_JSON_element_is_refused_with_a_message_naming_the_field(string json, string field)
    {
        using var document = JsonDocument.Parse(json);

        var refusal = Assert.Throws<InvalidOrderException>(() => OrderJson.Deserialize(document.RootElement));

        Assert.Contains(field, refusal.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData(0L, "OrderId")]
    [InlineData(-1L, "OrderId")]
    public void An_order_built_with_an_id_that_is_not_positive_is_refused_naming_OrderId(long id, string field)
    {
        var refusal = Assert.Throws<InvalidOrderException>(() => OrderJson.Validate(Valid with { OrderId = id }));

        Assert.Contains(field, refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_order_built_with_an_empty_guid_is_refused_naming_OrderGuid()
    {
        var refusal = Assert.Throws<InvalidOrderException>(
            () => OrderJson.Validate(Valid with { OrderGuid = Guid.Empty }));

        Assert.Contains("OrderGuid", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_order_built_with_an_undefined_delivery_is_refused_naming_the_delivery()
    {
        var refusal = Assert.Throws<InvalidOrderException>(
            () => OrderJson.Validate(Valid with { Delivery = (Delivery)0 }));

        Assert.Contains("delivery", refusal.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData("null")]
    [InlineData("[]")]
    [InlineData("{")]
    [InlineData("not JSON")]
    public void Bytes_that_are_not_an_order_are_refused_as_not_an_order(string json)
    {
        var refusal = Assert.Throws<InvalidOrderException>(() => OrderJson.Deserialize(Encoding.UTF8.GetBytes(json)));

        Assert.StartsWith("not an order", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_valid_order_passes_validation_as_it_is()
    {
        Assert.Same(Valid, OrderJson.Validate(Valid));
    }
}
