using Azure.Core.Pipeline;
using Azure.Identity;
using Azure.Storage.Blobs;

namespace OrderDistribution.Storage;

/// <summary>
/// Opens the blob service from <see cref="StorageOptions"/>: with a connection string locally (Azurite), or with
/// the account URL and <see cref="DefaultAzureCredential"/> (managed identity in Azure), never an account key.
/// </summary>
public static class BlobClientFactory
{
    /// <param name="networkTimeout">
    /// The SDK's own bound on one request. Callers that bound their attempts themselves (a resilience pipeline's
    /// timeout) set it above their own, so that theirs is the one that fires.
    /// </param>
    /// <param name="maxRetries">
    /// None by default: retries are the callers' (the receiver's resilience pipeline; the load tool's own waits),
    /// and a retry inside the SDK would multiply theirs and outlast their timeouts. A caller without a pipeline of
    /// its own (the load tool's storage-alone measurement) has the SDK retry as the pipeline would: after about
    /// 0.1 and 0.2 s.
    /// </param>
    /// <param name="connectTimeout">
    /// A bound on opening a connection, for a caller that names a store that is not there at once but waits for one
    /// that is there and slow to answer; unset: the SDK's own transport, bounded by <paramref name="networkTimeout"/>.
    /// </param>
    public static BlobServiceClient Create(StorageOptions options, TimeSpan networkTimeout, int maxRetries = 0,
        TimeSpan? connectTimeout = null)
    {
        var clientOptions = new BlobClientOptions
        {
            Retry =
            {
                MaxRetries = maxRetries, NetworkTimeout = networkTimeout,
                Delay = TimeSpan.FromMilliseconds(100), Mode = Azure.Core.RetryMode.Exponential,
            },
            // Nothing reads the SDK's event source, and the HTTP calls are traced (for Application Insights) by
            // HttpClient itself: the SDK's own log records and activities would only cost allocations per call.
            Diagnostics = { IsLoggingEnabled = false, IsDistributedTracingEnabled = false },
        };
        if (connectTimeout is { } connect)
        {
            // As the SDK's own transport sets its client, with the bound added; the calls' timeouts stay the
            // pipeline's (networkTimeout), not HttpClient's 100 s.
            var handler = new SocketsHttpHandler
            {
                ConnectTimeout = connect,
                AllowAutoRedirect = false,
                UseCookies = false,
            };
            clientOptions.Transport = new HttpClientTransport(
                new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan });
        }

        return options.AccountUrl is { } accountUrl
            ? new BlobServiceClient(accountUrl, new DefaultAzureCredential(), clientOptions)
            : new BlobServiceClient(options.ConnectionString, clientOptions);
    }
}
