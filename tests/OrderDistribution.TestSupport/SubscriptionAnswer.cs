using System.Text.Json;

namespace OrderDistribution.TestSupport;

/// <summary>
/// Reads an app's <c>/dapr/subscribe</c> answer as daprd does: with Go's JSON decoding, which matches keys
/// case-insensitively (the SDK writes "pubsubName"), and calling a route with or without its leading slash
/// (the SDK writes none).
/// </summary>
public static class SubscriptionAnswer
{
    public static JsonElement Field(JsonElement element, string name) =>
        element.EnumerateObject().Single(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase)).Value;

    public static string RouteOf(JsonElement subscription) => "/" +
        Field(subscription, "route").GetString()!.TrimStart('/');

    public static List<string> Keys(JsonElement element) =>
        element.EnumerateObject().Select(p => p.Name.ToLowerInvariant()).Order(StringComparer.Ordinal).ToList();
}
