using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace OrderDistribution.TestSupport.Brokers;

/// <summary>
/// One broker's process, started again and again from the same start info (same port, same data folder), its
/// output appended to a log file in the data folder. What <see cref="RedisServer"/> and <see cref="RabbitMqServer"/>
/// share. It counts as started once <paramref name="ready"/> says so on a connection to its port.
/// </summary>
internal sealed class BrokerProcess(
    string name,
    Func<ProcessStartInfo> startInfo,
    int port,
    string logFile,
    TimeSpan startTimeout,
    Func<NetworkStream, Task<bool>> ready)
{
    private Process? _process;

    public async Task StartAsync()
    {
        if (_process is { HasExited: false })
        {
            throw new InvalidOperationException($"{name} is already running.");
        }

        var start = startInfo();
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        _process?.Dispose();
        _process = Process.Start(start) ?? throw new InvalidOperationException($"{name} did not start.");
        _process.OutputDataReceived += (_, line) => Append(line.Data);
        _process.ErrorDataReceived += (_, line) => Append(line.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        await WaitUntilListeningAsync();
    }

    /// <summary>
    /// Starts <paramref name="process"/>; disposes <paramref name="server"/> (its data folder) if it fails.
    /// </summary>
    public static async Task<T> StartOrDisposeAsync<T>(T server, BrokerProcess process)
        where T : IAsyncDisposable
    {
        try
        {
            await process.StartAsync();
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>Kills it if it runs, then starts it again: same start info, port and data folder.</summary>
    public Task RestartAsync()
    {
        Kill();
        return StartAsync();
    }

    /// <summary>
    /// SIGKILL to the broker and every process it started (kill -9: no shutdown, no flush), then waits until its port
    /// refuses connections: a killed node's listener can outlive the script that started it, and a restart probed
    /// while it lingers would take the dying listener for the new one.
    /// </summary>
    public void Kill()
    {
        if (_process is null || _process.HasExited)
        {
            return;
        }

        _process.Kill(entireProcessTree: true);
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        if (!_process.WaitForExit(TimeSpan.FromSeconds(30)))
        {
            throw new TimeoutException($"{name} did not end within 30 s of kill -9.");
        }

        while (Listening())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"127.0.0.1:{port} still took connections 30 s after {name}'s kill -9.");
            }

            Thread.Sleep(50);
        }
    }

    public bool Running => _process is { HasExited: false };

    public void Dispose()
    {
        Kill();
        _process?.Dispose();
        _process = null;
    }

    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private bool Listening()
    {
        try
        {
            using var client = new TcpClient();
            client.Connect(IPAddress.Loopback, port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    private void Append(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (this)
        {
            File.AppendAllText(logFile, line + Environment.NewLine);
        }
    }

    private async Task WaitUntilListeningAsync()
    {
        var deadline = DateTime.UtcNow + startTimeout;
        while (DateTime.UtcNow < deadline)
        {
            if (_process!.HasExited)
            {
                throw new InvalidOperationException(
                    $"{name} exited at start with code {_process.ExitCode}; its output: {logFile}");
            }

            try
            {
                using var client = new TcpClient();
                await client.ConnectAsync(IPAddress.Loopback, port);
                if (await ready(client.GetStream()))
                {
                    return;
                }
            }
            catch (Exception notYet) when (notYet is SocketException or IOException or OperationCanceledException)
            {
                // Not listening yet.
            }

            await Task.Delay(100);
        }

        throw new TimeoutException(
            $"{name} was not ready on 127.0.0.1:{port} within {startTimeout.TotalSeconds:0} s; its output: {logFile}");
    }
}
