using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Net;
using System.Net.Sockets;
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
        using var store = new BusyStore();
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
        using var store = new BusyStore();
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
    /// What the SDK reports of its calls: the Azure-Core event source's events (its logging), and the scopes it opens
    /// on its diagnostic listeners (its tracing) around the container client's calls.
    /// </summary>
    private sealed class SdkEvents : EventListener, IObserver<DiagnosticListener>
    {
        private readonly List<IDisposable> _subscriptions = [];

        public ConcurrentQueue<string> Logged { get; } = new();

        public ConcurrentQueue<string> Scopes { get; } = new();

        public SdkEvents() => _subscriptions.Add(DiagnosticListener.AllListeners.Subscribe(this));

        public override void Dispose()
        {
            _subscriptions.ForEach(subscription => subscription.Dispose());
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
                _subscriptions.Add(value.Subscribe(new Observer(pair =>
                {
                    if (pair.Key.StartsWith("BlobContainerClient.", StringComparison.Ordinal))
                    {
                        Scopes.Enqueue(pair.Key);
                    }
                }), (_, _, _) => true));
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

    /// <summary>
    /// A store that answers every request 503 (busy, which the SDK retries when asked to), and counts them.
    /// </summary>
    private sealed class BusyStore : IDisposable
    {
        private static readonly byte[] Busy =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"u8.ToArray();

        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private int _requests;

        public BusyStore()
        {
            _listener.Start();
            _ = Task.Run(AnswerAsync);
        }

        public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

        public int Requests => Volatile.Read(ref _requests);

        public void Dispose() => _listener.Dispose();

        private async Task AnswerAsync()
        {
            try
            {
                while (true)
                {
                    using var connection = await _listener.AcceptTcpClientAsync();
                    var stream = connection.GetStream();
                    // A GET's request ends with its headers' blank line.
                    var request = new List<byte>();
                    var buffer = new byte[4096];
                    while (!request.TakeLast(4).SequenceEqual("\r\n\r\n"u8.ToArray()))
                    {
                        var read = await stream.ReadAsync(buffer);
                        if (read == 0)
                        {
                            break;
                        }

                        request.AddRange(buffer.AsSpan(0, read));
                    }

                    Interlocked.Increment(ref _requests);
                    await stream.WriteAsync(Busy);
                }
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or IOException)
            {
                // The listener was stopped.
            }
        }
    }
}
