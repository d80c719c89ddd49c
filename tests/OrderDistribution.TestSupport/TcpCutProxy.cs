using System.Net;
using System.Net.Sockets;

namespace OrderDistribution.TestSupport;

/// <summary>
/// Forwards TCP connections on 127.0.0.1 to a target until <see cref="Cut"/>: then every open connection is
/// dropped and new ones are refused, as when a storage account becomes unreachable; or, for a while, <see
/// cref="Refusing"/>; or one connection of many silent for good (<see cref="FreezeOneConnectionAsync"/>).
/// </summary>
public sealed class TcpCutProxy : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly int _targetPort;
    private readonly List<TcpClient> _open = [];
    private readonly CancellationTokenSource _cut = new();

    private readonly TimeSpan _latency;
    private volatile bool _refusing;
    private TaskCompletionSource? _freezeOne;
    private int _openNow;
    private int _mostOpen;

    /// <param name="latency">Added before each chunk sent to the target, to slow a batch down.</param>
    public TcpCutProxy(int targetPort, TimeSpan latency = default)
    {
        _targetPort = targetPort;
        _latency = latency;
        _listener.Start();
        _ = AcceptLoopAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>The most connections that were open through the proxy at one time.</summary>
    public int MostOpenConnections => Volatile.Read(ref _mostOpen);

    /// <summary>
    /// While true, nothing is forwarded to the target: connections stay open and hang, as on a frozen store.
    /// </summary>
    public bool Frozen { get; set; }

    /// <summary>
    /// While true, every call fails at once, as on a store stopped cleanly: open connections are reset, and each new
    /// one is reset as soon as it is accepted. Set back to false, connections are forwarded again.
    /// </summary>
    public bool Refusing
    {
        get => _refusing;
        set
        {
            _refusing = value;
            if (value)
            {
                ResetOpen();
            }
        }
    }

    /// <summary>
    /// The next request sent on any connection is taken and never passed on, and that connection stays open: the
    /// store accepted a call and never answers it. Every other connection, open or new, goes on as before.
    /// </summary>
    /// <returns>Done when a request was held.</returns>
    public Task FreezeOneConnectionAsync()
    {
        var frozen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _freezeOne, frozen);
        return frozen.Task;
    }

    public void Cut()
    {
        _cut.Cancel();
        _listener.Stop();
        ResetOpen();
    }

    private void ResetOpen()
    {
        lock (_open)
        {
            foreach (var client in _open)
            {
                // A reset, not a graceful close: the other side sees the connection break.
                if (client.Client is { Connected: true } socket)
                {
                    socket.LingerState = new LingerOption(true, 0);
                }

                client.Dispose();
            }
        }
    }

    public void Dispose()
    {
        if (!_cut.IsCancellationRequested)
        {
            Cut();
        }

        _cut.Dispose();
    }

    private async Task AcceptLoopAsync()
    {
        while (!_cut.IsCancellationRequested)
        {
            TcpClient inbound;
            try
            {
                inbound = await _listener.AcceptTcpClientAsync(_cut.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            _ = PipeAsync(inbound);
        }
    }

    private async Task CopyWithLatencyAsync(NetworkStream from, NetworkStream to)
    {
        var buffer = new byte[81_920];
        int read;
        while ((read = await from.ReadAsync(buffer, _cut.Token)) > 0)
        {
            if (_latency > TimeSpan.Zero)
            {
                await Task.Delay(_latency, _cut.Token);
            }

            while (Frozen)
            {
                await Task.Delay(10, _cut.Token);
            }

            if (Volatile.Read(ref _freezeOne) is { } freeze
                && Interlocked.CompareExchange(ref _freezeOne, null, freeze) == freeze)
            {
                freeze.TrySetResult();
                await Task.Delay(Timeout.Infinite, _cut.Token);
            }

            await to.WriteAsync(buffer.AsMemory(0, read), _cut.Token);
        }
    }

    private async Task PipeAsync(TcpClient inbound)
    {
        if (_refusing)
        {
            inbound.Client.LingerState = new LingerOption(true, 0);
            inbound.Dispose();
            return;
        }

        var outbound = new TcpClient();
        lock (_open)
        {
            _open.Add(inbound);
            _open.Add(outbound);
        }

        var open = Interlocked.Increment(ref _openNow);
        int most;
        while (open > (most = Volatile.Read(ref _mostOpen))
            && Interlocked.CompareExchange(ref _mostOpen, open, most) != most)
        {
        }

        try
        {
            await outbound.ConnectAsync(IPAddress.Loopback, _targetPort, _cut.Token);
            await Task.WhenAny(
                CopyWithLatencyAsync(inbound.GetStream(), outbound.GetStream()),
                outbound.GetStream().CopyToAsync(inbound.GetStream(), _cut.Token));
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or SocketException
            or ObjectDisposedException)
        {
        }
        finally
        {
            Interlocked.Decrement(ref _openNow);
            lock (_open)
            {
                _open.Remove(inbound);
                _open.Remove(outbound);
            }

            inbound.Dispose();
            outbound.Dispose();
        }
    }
}
