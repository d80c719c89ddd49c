using System.Globalization;

namespace OrderDistribution.Contracts;

/// <summary>
/// How an order is stored as a blob: the receivers write <c>{OrderId}.json</c> with the time they stored it as
/// metadata <c>storedat</c>; the load tool reads both back.
/// </summary>
public static class OrderBlob
{
    /// <summary>
    /// Blob metadata: when the receiver stored the order, UTC, ISO 8601 round-trip format (sub-millisecond).
    /// </summary>
    public const string StoredAtMetadata = "storedat";

    private const string Extension = ".json";

    public static string NameOf(Order order) =>
        string.Create(CultureInfo.InvariantCulture, $"{order.OrderId}{Extension}");

    public static string FormatStoredAt(DateTimeOffset storedAt) =>
        storedAt.UtcDateTime.ToString("O", CultureInfo.InvariantCulture);

    public static DateTimeOffset? ParseStoredAt(string? value) =>
        DateTimeOffset.TryParseExact(
            value, "O", CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var storedAt)
            ? storedAt
            : null;

    /// <returns>The order id the blob is named after, or null for a blob that is not an order's.</returns>
    public static long? OrderIdOf(string blobName) =>
        blobName.EndsWith(Extension, StringComparison.Ordinal)
        && long.TryParse(
            blobName.AsSpan(0, blobName.Length - Extension.Length), NumberStyles.None, CultureInfo.InvariantCulture,
            out var id)
            ? id
            : null;
}
