using System.Text.Json.Serialization;

namespace OrderDistribution.Contracts;

/// <summary>Source-generated JSON for orders: PascalCase out, any case in, numbers strict.</summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.Unspecified,
    PropertyNameCaseInsensitive = true,
    NumberHandling = JsonNumberHandling.Strict)]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(List<Order>))]
[JsonSerializable(typeof(DeadLetter))]
public sealed partial class OrderJsonContext : JsonSerializerContext;
