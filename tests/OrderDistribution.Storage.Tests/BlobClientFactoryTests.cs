using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Tracing;
using Azure;

namespace OrderDistribution.Storage.Tests;

/// <summary>
/// The blob client's own retries: none unless asked, so that the callers' resilience pipelines and deadlines are the
/// only ones that try again; and none of the SDK's own diagnostics, which would cost allocations on every write.
/// </summary>
public sealed class BlobClientFactoryTests
{
    [Theory]
    [InlineData(null, 1)]
    [InlineData(2, 3)]
    public async Task A_client_tries_a_call_once_unless_asked_to_retry(int? maxRetries, int attempts)
    {
        using var store = FakeStore.Busy();
        var options = new StorageOptions { ConnectionString = Azurite.ConnectionStringFor(store.Port) };
        var client = maxRetries is { } retries
            ? BlobClientFactory.Create(options, TimeSpan.FromSeconds(10), retries)
            : BlobClientFactory.Create(options, TimeSpan.FromSeconds(10));

        await Assert.ThrowsAsync<RequestFailedException>(() => client.GetBlobContainerClient("outbox").ExistsAsync());

        Assert.Equal(attempts, store.Requests);
    }

    [Fact]
    public async Task A_clients_calls_raise_none_of_the_sdks_own_log_events_or_tracing_scopes()
    {
        using var store = FakeStore.Busy();
        var address = $"127.0.0.1:{store.Port}";
        using var sdkEvents = new SdkEvents();
        var options = new StorageOptions { ConnectionString = Azurite.ConnectionStringFor(store.Port) };
        var client = BlobClientFactory.Create(options, TimeSpan.FromSeconds(10));

        await Assert.ThrowsAsync<RequestFailedException>(() => client.GetBlobContainerClient("outbox").ExistsAsync());

        Assert.Equal(1, store.Requests);
        Assert.DoesNotContain(sdkEvents.Logged, line => line.Contains(address, StringComparison.Ordinal));
        Assert.Empty(sdkEvents.Scopes);
    }

    /// <summary>
    /// As the SDK's own transport: a redirect is an answer, not a call to another address with the same request (and
    /// its credentials), and no cookie a store sets is sent back; the same with the load tool's connect bound.
    /// </summary>
    [Theory]
    [InlineData(null)]
    [InlineData(10)]
    public async Task A_client_follows_no_redirect_and_sends_back_no_cookie(int? connectSeconds)
    {
        using var elsewhere = FakeStore.Busy();
        using var store = new FakeStore(
            "HTTP/1.1 307 Temporary Redirect\r\n" +
            $"Location: http://127.0.0.1:{elsewhere.Port}/devstoreaccount1/outbox?restype=container\r\n" +
            "Set-Cookie: session=1; Path=/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        var options = new StorageOptions { ConnectionString = Azurite.ConnectionStringFor(store.Port) };
        var client = BlobClientFactory.Create(options, TimeSpan.FromSeconds(10),
            connectTimeout: connectSeconds is { } seconds ? TimeSpan.FromSeconds(seconds) : null);

        var redirected = await Assert.ThrowsAsync<RequestFailedException>(
            () => client.GetBlobContainerClient("outbox").ExistsAsync());
        await Assert.ThrowsAsync<RequestFailedException>(() => client.GetBlobContainerClient("outbox").ExistsAsync());

        Assert.Equal(307, redirected.Status);
        Assert.Equal(0, elsewhere.Requests);
        Assert.Equal(2, store.Requests);
        Assert.DoesNotContain(store.Received, request => request.Contains("\r\nCookie:", StringComparison.Ordinal));
    }

    /// <summary>
    /// What the SDK reports of its calls: the Azure-Core event source's events (its logging), and the scopes it opens
    /// on its diagnostic listeners (its tracing) around the container client's calls.
    /// </summary>
    private sealed class SdkEvents : EventListener, IObserver<DiagnosticListener>
    {
        private readonly List<IDisposable> _subscriptions = [];

        public ConcurrentQueue<string> Logged { get; } = new();

        public ConcurrentQueue<string> Scopes { get; } = new();

        public SdkEvents()
        {
            var all = DiagnosticListener.AllListeners.Subscribe(this);
            lock (_subscriptions)
            {
                _subscriptions.Add(all);
            }
        }

        public override void Dispose()
        {
            lock (_subscriptions)
            {
                _subscriptions.ForEach(subscription => subscription.Dispose());
            }

            base.Dispose();
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == "Azure-Core")
            {
                EnableEvents(eventSource, EventLevel.Verbose);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData) =>
            Logged.Enqueue(string.Join(' ', eventData.Payload ?? []));

        public void OnNext(DiagnosticListener value)
        {
            if (value.Name.StartsWith("Azure.", StringComparison.Ordinal))
            {
                var subscription = value.Subscribe(new Observer(pair =>
                {
                    if (pair.Key.StartsWith("BlobContainerClient.", StringComparison.Ordinal))
                    {
                        Scopes.Enqueue(pair.Key);
                    }
                }), (_, _, _) => true);
                // Listeners made by other tests' clients arrive on their threads.
                lock (_subscriptions)
                {
                    _subscriptions.Add(subscription);
                }
            }
        }

        public void OnCompleted()
        {
        }

        public void OnError(Exception error)
        {
        }

        private sealed class Observer(Action<KeyValuePair<string, object?>> next)
            : IObserver<KeyValuePair<string, object?>>
        {
            public void OnNext(KeyValuePair<string, object?> value) => next(value);

            public void OnCompleted()
            {
            }

            public void OnError(Exception error)
            {
            }
        }
    }
}
