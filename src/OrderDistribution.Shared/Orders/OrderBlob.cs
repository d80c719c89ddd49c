using System.Globalization;

namespace OrderDistribution.Orders;

/// <summary>How an order is named as a blob: the receivers write <c>{OrderId}.json</c>, the load tool reads it back.</summary>
public static class OrderBlob
{
    private const string Extension = ".json";

    public static string NameOf(Order order) => string.Create(CultureInfo.InvariantCulture, $"{order.OrderId}{Extension}");

    /// <returns>The order id the blob is named after, or null for a blob that is not an order's.</returns>
    public static long? OrderIdOf(string blobName) =>
        blobName.EndsWith(Extension, StringComparison.Ordinal)
        && long.TryParse(blobName.AsSpan(0, blobName.Length - Extension.Length), NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? id
            : null;
}
