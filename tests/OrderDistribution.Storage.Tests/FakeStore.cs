using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace OrderDistribution.Storage.Tests;

/// <summary>
/// A store on 127.0.0.1 that answers every request with the same HTTP response, one request a connection, and keeps
/// each request's head (request line and headers) as it came.
/// </summary>
internal sealed class FakeStore : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly byte[] _answer;

    public FakeStore(string answer)
    {
        _answer = Encoding.ASCII.GetBytes(answer);
        _listener.Start();
        _ = Task.Run(AnswerAsync);
    }

    /// <summary>A store that answers every request 503 (busy, which the SDK retries when asked to).</summary>
    public static FakeStore Busy() =>
        new("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public ConcurrentQueue<string> Received { get; } = new();

    public int Requests => Received.Count;

    public void Dispose() => _listener.Dispose();

    private async Task AnswerAsync()
    {
        try
        {
            while (true)
            {
                using var connection = await _listener.AcceptTcpClientAsync();
                var stream = connection.GetStream();
                // The calls here are GETs and HEADs: a request ends with its headers' blank line.
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

                Received.Enqueue(Encoding.ASCII.GetString([.. request]));
                await stream.WriteAsync(_answer);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or IOException)
        {
            // The listener was stopped.
        }
    }
}
