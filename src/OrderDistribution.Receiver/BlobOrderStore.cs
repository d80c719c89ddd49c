using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;
using Polly;
using Polly.Timeout;

namespace OrderDistribution.Receiver;

/// <summary>
/// Stores each order as blob <c>{OrderId}.json</c> in the instance's outbox container, through the process's
/// storage pipeline (one bound on writes in flight for all requests). It writes only into a container it
/// has seen exist: one that vanishes (an upload answered "container not found") is created again.
/// An order's upload that outlived its delivery's wait is not sent again for its next delivery (<see
/// cref="OrderUploads"/>).
/// It is also the receiver's readiness probe: storage is ready when the container can be confirmed, or when an order
/// was stored into it since the last check or while the check waits: a store busy with a burst answers its uploads
/// while the check waits its turn behind them. A check storage did not answer says nothing of the container, so the
/// writes go on as before: had it made them confirm the container again, every write would wait behind that one
/// check, and on a busy store time out with it.
/// </summary>
public sealed partial class BlobOrderStore(
    IOptions<StorageOptions> storage,
    IOptions<ReceiverOptions> receiver,
    [FromKeyedServices(StorageResilience.Key)] ResiliencePipeline resilience,
    OrderUploads uploads,
    TimeProvider time,
    ILogger<BlobOrderStore> logger) : IOrderStore, IReadinessProbe, IDisposable
{
    /// <summary>
    /// Not an order's name (<see cref="OrderBlob.OrderIdOf"/>), so nothing that reads the outbox takes it for one.
    /// </summary>
    private const string WarmUpBlobName = "warm-up";

    private static readonly ETag NoBlobsETag = new("\"0x0\"");

    /// <summary>
    /// The same for every blob, and only read by the blob client: one instance rather than one a write.
    /// </summary>
    private static readonly BlobHttpHeaders JsonContent = new() { ContentType = "application/json" };

    private readonly SemaphoreSlim _confirming = new(1, 1);

    // The pipeline bounds every write (DependencyLimits.AbandonAfter); the SDK's own bound sits above it so it never
    // fires first.
    private readonly BlobContainerClient _container = BlobClientFactory
        .Create(storage.Value, DependencyLimits.AbandonAfterFor(storage.Value.RequestTimeout) * 2)
        .GetBlobContainerClient(receiver.Value.ContainerName);

    private volatile bool _confirmed;

    /// <summary>Completed by the first order stored since the last readiness check began.</summary>
    private TaskCompletionSource _storedSinceCheck = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private readonly string _containerCheck = $"the check of container {receiver.Value.ContainerName}";

    public string Name => $"storage container {receiver.Value.ContainerName}";

    public Task SaveAsync(Order order, CancellationToken cancellationToken) =>
        SaveAsync(order, OrderBlob.NameOf(order), conditions: null, cancellationToken);

    public async Task CheckAsync(CancellationToken cancellationToken)
    {
        var stored = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        if (Interlocked.Exchange(ref _storedSinceCheck, stored).Task.IsCompleted)
        {
            return;
        }

        using var asking = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var confirm = ConfirmAsync(recheck: true, asking.Token);
        if (await Task.WhenAny(confirm, stored.Task) != confirm)
        {
            // The order stored answered the check: the call is given up, and with it whatever it would have said.
            await asking.CancelAsync();
            _ = confirm.ContinueWith(static c => c.Exception, TaskContinuationOptions.OnlyOnFaulted);
            return;
        }

        try
        {
            await confirm;
        }
        catch (RequestFailedException e)
        {
            throw StorageFailure.OnOneLine(e);
        }
    }

    public void Dispose() => _confirming.Dispose();

    /// <summary>
    /// How an order's blob is sent: as JSON, stamped with when it was stored, under the write's conditions.
    /// </summary>
    public static BlobUploadOptions UploadOptions(DateTimeOffset storedAt, BlobRequestConditions? conditions = null) =>
        new()
        {
            HttpHeaders = JsonContent,
            Metadata = new Dictionary<string, string>
            {
                [OrderBlob.StoredAtMetadata] = OrderBlob.FormatStoredAt(storedAt),
            },
            Conditions = conditions,
        };

    /// <summary>
    /// A store over the same container whose every write runs whole, over the connection it opens, on a condition
    /// storage always refuses (a blob with an ETag no blob has), and fails as refused: what the warm-up writes its
    /// sample delivery to. Nothing is stored.
    /// </summary>
    public IOrderStore RefusingEveryWrite() => new RefusedWrites(this);

    private async Task SaveAsync(Order order, string blobName, BlobRequestConditions? conditions,
        CancellationToken cancellationToken)
    {
        if (conditions is null && uploads.TakeStoredLate(blobName))
        {
            return;
        }

        if (conditions is null && uploads.Running(blobName) is { } running)
        {
            await JoinAsync(running, blobName, cancellationToken);
            return;
        }

        var write = new Write(order, blobName, conditions);
        try
        {
            // A callback of object, as on every per-order path (DependencyResilience); its state names the call in
            // flight.
            await resilience.ExecuteAsync<object?, (BlobOrderStore Store, Write Write)>(static async (state, ct) =>
            {
                await state.Store.WriteAsync(state.Write, ct);
                return null;
            }, (this, write), cancellationToken);
        }
        catch (RequestFailedException e)
        {
            throw StorageFailure.OnOneLine(e);
        }
        catch (TimeoutRejectedException e)
        {
            throw Unanswered(write.Call ?? $"the upload of blob {_container.Name}/{write.BlobName}", e.Timeout, e);
        }
        finally
        {
            write.DeliveryLeaves();
        }
    }

    /// <summary>The order's upload for an earlier delivery still runs: this one waits for it, as long as one upload
    /// is waited for. Stored, this is the order's next delivery, so it spends what the upload remembered of storing
    /// late: left behind, that record would answer a later delivery SUCCESS after the blob was gone.</summary>
    private async Task JoinAsync(Task running, string blobName, CancellationToken cancellationToken)
    {
        var timeout = storage.Value.RequestTimeout;
        try
        {
            await running.WaitAsync(timeout, time, cancellationToken);
            uploads.TakeStoredLate(blobName);
        }
        catch (RequestFailedException e)
        {
            throw StorageFailure.OnOneLine(e);
        }
        catch (Exception e) when (e is TimeoutException
            || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            throw Unanswered(
                $"the upload of blob {_container.Name}/{blobName} (sent for an earlier delivery)", timeout, e);
        }
    }

    private static TimeoutException Unanswered(string call, TimeSpan timeout, Exception inner) =>
        new(string.Create(CultureInfo.InvariantCulture,
            $"storage did not answer {call} within {timeout.TotalSeconds:0.###} s"), inner);

    private async Task WriteAsync(Write write, CancellationToken cancellationToken)
    {
        if (!_confirmed)
        {
            write.Call = _containerCheck;
            await ConfirmAsync(recheck: false, cancellationToken);
            write.Call = null;
        }

        var blob = _container.GetBlockBlobClient(write.BlobName);
        using var json = new MemoryStream(OrderJson.Serialize(write.Order), writable: false);
        try
        {
            // No conditions for an order: the same order delivered again overwrites its blob.
            var upload = blob.UploadAsync(json, UploadOptions(time.GetUtcNow(), write.Conditions), cancellationToken);
            await (write.Conditions is null ? uploads.TrackAsync(write.BlobName, upload, write.StoredAfterDeliveryLeft)
                : upload);
            if (Volatile.Read(ref _storedSinceCheck) is { Task.IsCompleted: false } stored)
            {
                stored.TrySetResult();
            }
        }
        catch (RequestFailedException e) when (StorageFailure.IsContainerNotFound(e))
        {
            // Every write in flight meets the same missing container: the one that unconfirms it says so.
            if (Interlocked.Exchange(ref _confirmed, false))
            {
                LogContainerMissing(_container.Name);
            }

            throw;
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw StorageFailure.NoAnswer(e);
        }
    }

    /// <summary>
    /// Sees that the container exists, creating it when it does not, once at a time for all callers. It asks
    /// first: a create of an existing container answers 409, which telemetry would count as a failure every
    /// time readiness looks.
    /// </summary>
    /// <param name="recheck">Ask storage even when another caller confirmed the container meanwhile
    /// (readiness).</param>
    private async Task ConfirmAsync(bool recheck, CancellationToken cancellationToken)
    {
        await _confirming.WaitAsync(cancellationToken);
        try
        {
            if (_confirmed && !recheck)
            {
                return;
            }

            if (!await _container.ExistsAsync(cancellationToken))
            {
                await _container.CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: cancellationToken);
            }

            _confirmed = true;
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw StorageFailure.NoAnswer(e);
        }
        finally
        {
            _confirming.Release();
        }
    }

    [LoggerMessage(Microsoft.Extensions.Logging.LogLevel.Warning, "Container {Container} is gone; creating it again")]
    private partial void LogContainerMissing(string container);

    /// <summary>One order's write, and the storage call it is in, named when storage does not answer it.</summary>
    private sealed class Write(Order order, string blobName, BlobRequestConditions? conditions)
    {
        private const int Waiting = 0, Left = 1, Stored = 2;
        private int _state;

        public Order Order => order;

        public string BlobName => blobName;

        public BlobRequestConditions? Conditions => conditions;

        /// <summary>The call in flight when it is not the upload.</summary>
        public string? Call { get; set; }

        /// <summary>The delivery has its answer: stored, or not done.</summary>
        public void DeliveryLeaves() => Interlocked.CompareExchange(ref _state, Left, Waiting);

        /// <returns>Whether the delivery had stopped waiting when the upload stored the blob.</returns>
        public bool StoredAfterDeliveryLeft() => Interlocked.CompareExchange(ref _state, Stored, Waiting) == Left;
    }

    private sealed class RefusedWrites(BlobOrderStore store) : IOrderStore
    {
        public Task SaveAsync(Order order, CancellationToken cancellationToken) =>
            store.SaveAsync(order, WarmUpBlobName, new BlobRequestConditions { IfMatch = NoBlobsETag },
                cancellationToken);
    }
}
