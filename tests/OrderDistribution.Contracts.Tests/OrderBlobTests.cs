namespace OrderDistribution.Contracts.Tests;

/// <summary>An order's blob: its name, the id read back from a name, and the time it was stored.</summary>
public sealed class OrderBlobTests
{
    private static Order OrderNumber(long id) =>
        new() { OrderId = id, OrderGuid = Guid.NewGuid(), Delivery = Delivery.Express };

    [Fact]
    public void An_orders_blob_is_named_after_its_id()
    {
        Assert.Equal("1000001.json", OrderBlob.NameOf(OrderNumber(1000001)));
    }

    [Theory]
    [InlineData(1L)]
    [InlineData(1000001L)]
    [InlineData(long.MaxValue)]
    public void The_id_read_back_from_an_orders_blob_name_is_the_orders_id(long id)
    {
        Assert.Equal(id, OrderBlob.OrderIdOf(OrderBlob.NameOf(OrderNumber(id))));
    }

    [Theory]
    [InlineData("warm-up")]
    [InlineData("warm-up.json")]
    [InlineData("1000001")]
    [InlineData("1000001.txt")]
    [InlineData("1000001.json.tmp")]
    [InlineData(".json")]
    [InlineData("-7.json")]
    [InlineData("+7.json")]
    [InlineData(" 7.json")]
    [InlineData("1 000.json")]
    [InlineData("99999999999999999999.json")]
    public void A_name_that_is_not_an_orders_reads_back_no_id(string name)
    {
        Assert.Null(OrderBlob.OrderIdOf(name));
    }

    [Fact]
    public void The_stored_at_time_reads_back_as_the_same_instant_to_the_tick()
    {
        var storedAt = new DateTimeOffset(2026, 11, 26, 23, 59, 58, TimeSpan.FromHours(2)).AddTicks(1234567);

        var read = OrderBlob.ParseStoredAt(OrderBlob.FormatStoredAt(storedAt));

        Assert.Equal(storedAt.UtcTicks, read?.UtcTicks);
    }

    [Fact]
    public void The_stored_at_time_is_written_in_UTC_to_the_sub_millisecond()
    {
        var storedAt = new DateTimeOffset(2026, 11, 26, 23, 59, 58, TimeSpan.FromHours(2)).AddTicks(1234567);

        Assert.Equal("2026-11-26T21:59:58.1234567Z", OrderBlob.FormatStoredAt(storedAt));
    }

    [Fact]
    public void A_stored_at_time_written_without_an_offset_is_read_as_UTC()
    {
        Assert.Equal(
            new DateTimeOffset(2026, 11, 26, 21, 59, 58, TimeSpan.Zero).AddTicks(1234567),
            OrderBlob.ParseStoredAt("2026-11-26T21:59:58.1234567"));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("yesterday")]
    [InlineData("26/11/2026 21:59:58")]
    public void A_stored_at_value_that_is_not_a_time_reads_back_as_none(string? value)
    {
        Assert.Null(OrderBlob.ParseStoredAt(value));
    }
}
