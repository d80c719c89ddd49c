using System.Text.Json.Serialization;

namespace OrderDistribution.LoadTool.Generation;

[JsonConverter(typeof(JsonStringEnumConverter<PoisonKind>))]
public enum PoisonKind
{
    /// <summary>An order whose delivery is neither Express nor Standard.</summary>
    UnknownDelivery,

    /// <summary>An order without its OrderGuid and Delivery.</summary>
    MissingFields,

    /// <summary>
    /// Not JSON at all; published with a non-JSON content type, so the sidecar carries it as a string.
    /// </summary>
    NotJson,
}
