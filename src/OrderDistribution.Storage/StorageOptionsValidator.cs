using Microsoft.Extensions.Options;
using Azure.Storage.Blobs;

namespace OrderDistribution.Storage;

public sealed class StorageOptionsValidator : IValidateOptions<StorageOptions>
{
    public ValidateOptionsResult Validate(string? name, StorageOptions options)
    {
        var hasConnectionString = !string.IsNullOrWhiteSpace(options.ConnectionString);
        if (hasConnectionString == (options.AccountUrl is not null))
        {
            return ValidateOptionsResult.Fail(
                "Set exactly one of Storage:ConnectionString (local, e.g. UseDevelopmentStorage=true for Azurite) " +
                "or Storage:AccountUrl (Azure, e.g. https://<account>.blob.core.windows.net).");
        }

        if (options.AccountUrl is { IsAbsoluteUri: false } or { Scheme: not ("https" or "http") })
        {
            return ValidateOptionsResult.Fail($"Storage:AccountUrl must be an absolute http(s) URL, not '{options.AccountUrl}'.");
        }

        if (hasConnectionString && !IsConnectionString(options.ConnectionString!))
        {
            return ValidateOptionsResult.Fail(
                "Storage:ConnectionString is not a storage connection string (expected e.g. UseDevelopmentStorage=true, " +
                "or DefaultEndpointsProtocol=...;AccountName=...;AccountKey=...;BlobEndpoint=...).");
        }

        if (options.RequestTimeout <= TimeSpan.Zero)
        {
            return ValidateOptionsResult.Fail("Storage:RequestTimeout must be positive.");
        }

        return ValidateOptionsResult.Success;
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
