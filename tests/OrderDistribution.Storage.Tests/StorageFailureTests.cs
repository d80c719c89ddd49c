using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Specialized;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Storage.Tests;

/// <summary>
/// Which failures of the blob SDK the storage pipeline retries, on the exceptions the SDK really throws: the
/// caller's cancellation must never look like storage failing, or a delivery's deadline would open the breaker.
/// </summary>
public sealed class StorageFailureTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    [Theory]
    [InlineData(0, null, true)]
    [InlineData(408, null, true)]
    [InlineData(429, null, true)]
    [InlineData(500, "InternalError", true)]
    [InlineData(503, "ServerBusy", true)]
    [InlineData(409, "ContainerBeingDeleted", true)]
    [InlineData(409, "ContainerAlreadyExists", false)]
    [InlineData(403, "AuthorizationFailure", false)]
    [InlineData(404, "ContainerNotFound", false)]
    [InlineData(404, "BlobNotFound", false)]
    public void A_status_is_transient_only_when_storage_is_unwell_or_the_container_still_being_deleted(int status,
        string? errorCode, bool transient) =>
        Assert.Equal(transient,
            StorageFailure.IsTransient(new RequestFailedException(status, "failed", errorCode, null)));

    [Fact]
    public async Task A_refused_connection_is_status_0_transient_and_named_no_answer_on_one_line()
    {
        var blob = Client(Azurite.ConnectionStringFor(Azurite.FreePort()))
            .GetBlobContainerClient("outbox")
            .GetBlockBlobClient("1.json");

        var failure = await Assert.ThrowsAsync<RequestFailedException>(() => blob.UploadAsync(new MemoryStream([1])));

        Assert.Equal(0, failure.Status);
        Assert.True(StorageFailure.IsTransient(failure));
        var line = StorageFailure.OnOneLine(failure).Message;
        Assert.Equal($"no answer: {failure.Message.Split('\n')[0].Trim()}", line);
    }

    [Fact]
    public async Task The_sdks_own_network_timeout_named_no_answer_is_transient_but_the_callers_cancellation_is_not()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port) { Frozen = true };
        var timedOut = Client(Azurite.ConnectionStringFor(proxy.Port), networkTimeout: TimeSpan.FromMilliseconds(300))
            .GetBlobContainerClient("outbox");
        var patient = Client(Azurite.ConnectionStringFor(proxy.Port)).GetBlobContainerClient("outbox");
        using var caller = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        // The SDK's own timeout is a cancellation too: only the caller's token tells them apart.
        var sdkTimeout =
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => timedOut.ExistsAsync(CancellationToken.None));
        var cancelled =
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => patient.ExistsAsync(caller.Token));

        var noAnswer = StorageFailure.NoAnswer(sdkTimeout);
        Assert.True(StorageFailure.IsTransient(noAnswer));
        Assert.Equal($"no answer in time ({sdkTimeout.Message.Split('\n')[0].Trim()})", noAnswer.Message);
        Assert.Same(sdkTimeout, noAnswer.InnerException);
        Assert.False(StorageFailure.IsTransient(cancelled), cancelled.ToString());
    }

    [Fact]
    public async Task A_write_into_a_missing_container_is_container_not_found_and_not_counted_as_storage_failing()
    {
        var blob = Client(storage.Azurite.ConnectionString)
            .GetBlobContainerClient($"missing-{Guid.NewGuid():N}"[..20])
            .GetBlockBlobClient("1.json");

        var failure = await Assert.ThrowsAsync<RequestFailedException>(() => blob.UploadAsync(new MemoryStream([1])));

        Assert.True(StorageFailure.IsContainerNotFound(failure));
        Assert.False(StorageFailure.IsTransient(failure));
    }

    [Fact]
    public void The_sdks_many_line_message_is_put_on_one_line_keeping_status_and_error_code()
    {
        var failure =
            new RequestFailedException(503,
                "The server is busy.\nRequestId:1\nTime:now\nStatus: 503\n\nHeaders:\nServer: x", "ServerBusy", null);

        var line = StorageFailure.OnOneLine(failure);

        Assert.Equal("503 ServerBusy: The server is busy.", line.Message);
        Assert.Equal((503, "ServerBusy"), (line.Status, line.ErrorCode));
        Assert.Same(failure, line.InnerException);
    }

    private static BlobServiceClient Client(string connectionString, TimeSpan? networkTimeout = null) =>
        BlobClientFactory.Create(new StorageOptions { ConnectionString = connectionString },
            networkTimeout ?? TimeSpan.FromSeconds(30));
}
