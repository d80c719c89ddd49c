using System.ComponentModel.DataAnnotations;
using Azure.Storage.Blobs;

namespace OrderDistribution.Storage;

/// <summary>
/// Where the outbox blobs live. Section <c>Storage</c>: a connection string locally (Azurite), or the
/// account URL in Azure, reached with the app's managed identity.
/// </summary>
public sealed class StorageOptions : IValidatableObject
{
    public const string Section = "Storage";

    public string? ConnectionString { get; set; }

    public Uri? AccountUrl { get; set; }

    /// <summary>
    /// How long a write waits for storage before its order is answered RETRY. The call runs on after that, in its place
    /// in the process's limit, until storage answers or six times this passed (<c>DependencyLimits.AbandonAfter</c>).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.0000001", "10675199.02:48:05.4775807",
        ErrorMessage = "Storage:RequestTimeout must be positive.")]
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(5);

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        var hasConnectionString = !string.IsNullOrWhiteSpace(ConnectionString);
        if (hasConnectionString == (AccountUrl is not null))
        {
            yield return new ValidationResult(
                "Set exactly one of Storage:ConnectionString (local, e.g. UseDevelopmentStorage=true for Azurite) " +
                "or Storage:AccountUrl (Azure, e.g. https://<account>.blob.core.windows.net).",
                [nameof(ConnectionString), nameof(AccountUrl)]);
        }
        else if (AccountUrl is { IsAbsoluteUri: false } or { Scheme: not ("https" or "http") })
        {
            yield return new ValidationResult(
                $"Storage:AccountUrl must be an absolute http(s) URL, not '{AccountUrl}'.", [nameof(AccountUrl)]);
        }
        else if (hasConnectionString && !IsConnectionString(ConnectionString!))
        {
            yield return new ValidationResult(
                "Storage:ConnectionString is not a storage connection string " +
                "(expected e.g. UseDevelopmentStorage=true, " +
                "or DefaultEndpointsProtocol=...;AccountName=...;AccountKey=...;BlobEndpoint=...).",
                [nameof(ConnectionString)]);
        }
    }

    /// <summary>Whether the blob SDK accepts it: the client parses it and opens no connection.</summary>
    private static bool IsConnectionString(string connectionString)
    {
        try
        {
            _ = new BlobServiceClient(connectionString);
            return true;
        }
        catch (Exception e) when (e is FormatException or ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }
}
