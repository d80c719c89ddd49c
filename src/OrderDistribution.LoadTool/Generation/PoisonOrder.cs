using System.Text.Json.Serialization;

namespace OrderDistribution.LoadTool;

[JsonConverter(typeof(JsonStringEnumConverter<PoisonKind>))]
public enum PoisonKind
{
    /// <summary>An order whose delivery is neither Express nor Standard.</summary>
    UnknownDelivery,

    /// <summary>An order without its OrderGuid and Delivery.</summary>
    MissingFields,

    /// <summary>Not JSON at all; published with a non-JSON content type, so the sidecar carries it as a string.</summary>
    NotJson,
}

/// <summary>
/// An invalid order mixed into the burst on purpose. The apps must drop it; it never becomes a blob, and the
/// load tool never counts it as missing. <paramref name="Id"/> is its place in the burst's id sequence and its
/// entry id when published.
/// </summary>
public sealed record PoisonOrder(long Id, PoisonKind Kind, string ContentType, string Payload);
