using Azure.Core;
using Azure.Identity;
using Microsoft.WindowsAzure.Storage;
using Microsoft.WindowsAzure.Storage.Auth;
using TokenCredential = Microsoft.WindowsAzure.Storage.Auth.TokenCredential;
using Microsoft.WindowsAzure.Storage.Blob;
using Microsoft.WindowsAzure.Storage.RetryPolicies;

namespace OrderDistribution.Storage;

/// <summary>
/// Opens the blob service from <see cref="StorageOptions"/>. Azure.Storage.Blobs cannot be restored in
/// this project's feed, so this uses WindowsAzure.Storage; with an account URL it signs in with
/// <see cref="DefaultAzureCredential"/> (managed identity in Azure), never with an account key.
/// </summary>
public static class BlobClientFactory
{
    private static readonly TokenRequestContext StorageScope = new(["https://storage.azure.com/.default"]);

    public static async Task<CloudBlobClient> CreateAsync(StorageOptions options, CancellationToken cancellationToken)
    {
        var client = options.AccountUrl is { } accountUrl
            ? new CloudBlobClient(accountUrl, await ManagedIdentityCredentialsAsync(cancellationToken))
            : CloudStorageAccount.Parse(options.ConnectionString).CreateCloudBlobClient();
        // Retries and timeouts are the callers' resilience pipelines'; this bound only stops a call the
        // caller forgot to bound.
        client.DefaultRequestOptions = new BlobRequestOptions
        {
            RetryPolicy = new NoRetry(),
            MaximumExecutionTime = options.RequestTimeout,
        };
        return client;
    }

    private static async Task<StorageCredentials> ManagedIdentityCredentialsAsync(CancellationToken cancellationToken)
    {
        var credential = new DefaultAzureCredential();
        var token = await credential.GetTokenAsync(StorageScope, cancellationToken);
        return new StorageCredentials(new TokenCredential(
            token.Token,
            async (_, ct) =>
            {
                var renewed = await credential.GetTokenAsync(StorageScope, ct);
                return new NewTokenAndFrequency(renewed.Token, RenewBefore(renewed.ExpiresOn));
            },
            null,
            RenewBefore(token.ExpiresOn)));
    }

    private static TimeSpan RenewBefore(DateTimeOffset expiresOn)
    {
        var untilFiveMinutesBefore = expiresOn - DateTimeOffset.UtcNow - TimeSpan.FromMinutes(5);
        return untilFiveMinutesBefore > TimeSpan.FromSeconds(30) ? untilFiveMinutesBefore : TimeSpan.FromSeconds(30);
    }
}
