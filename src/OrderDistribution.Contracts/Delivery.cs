using System.Text.Json.Serialization;

namespace OrderDistribution.Contracts;

/// <summary>How fast an order is to go: it picks the express or the standard queue.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<Delivery>))]
public enum Delivery
{
    Express = 1,
    Standard = 2,
}
