namespace OrderDistribution.Contracts;

/// <summary>One line of an order.</summary>
public sealed record OrderItem
{
    public int OrderItemId { get; init; }
    public string? SKU { get; init; }
    public int Quantity { get; init; }
}
