namespace OrderDistribution.Contracts;

/// <summary>The order contract every app and queue shares. Written PascalCase, read case-insensitively.</summary>
public sealed record Order
{
    public required long OrderId { get; init; }
    public required Guid OrderGuid { get; init; }
    public string? Description { get; init; }
    public string? FirstName { get; init; }
    public string? LastName { get; init; }
    public required Delivery Delivery { get; init; }
    public IReadOnlyList<OrderItem> Items { get; init; } = [];
}
