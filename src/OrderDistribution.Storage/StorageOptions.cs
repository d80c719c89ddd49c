namespace OrderDistribution.Storage;

/// <summary>
/// Where the outbox blobs live. Section <c>Storage</c>: a connection string locally (Azurite), or the
/// account URL in Azure, reached with the app's managed identity.
/// </summary>
public sealed class StorageOptions
{
    public const string Section = "Storage";

    public string? ConnectionString { get; set; }

    public Uri? AccountUrl { get; set; }

    /// <summary>The longest one storage call may take before it is abandoned and tried again.</summary>
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(5);
}
