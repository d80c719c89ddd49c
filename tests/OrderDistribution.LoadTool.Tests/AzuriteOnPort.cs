using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>
/// Azurite on a port and data folder of the test's choosing, so that it can be stopped and started again where
/// the load tool expects it (TestSupport's Azurite picks a new port each time).
/// </summary>
public sealed class AzuriteOnPort : IAsyncDisposable
{
    private Process? _process;

    public AzuriteOnPort(int port, string dataFolder)
    {
        Port = port;
        DataFolder = dataFolder;
    }

    public int Port { get; }

    public string DataFolder { get; }

    public string ConnectionString => Azurite.ConnectionStringFor(Port);

    public async Task StartAsync()
    {
        var executable = Path.Combine(RepositoryRoot.Path, ".tools", "node_modules", ".bin", "azurite-blob") is var local && File.Exists(local)
            ? local
            : ProgramPath.Find("azurite-blob") ?? throw new InvalidOperationException("Azurite is not installed: run scripts/install-tools.sh.");
        var start = new ProcessStartInfo(executable) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[]
                 {
                     "--blobHost", "127.0.0.1", "--blobPort", Port.ToString(CultureInfo.InvariantCulture),
                     "--skipApiVersionCheck", "--loose", "--silent", "--location", DataFolder,
                 })
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start)!;
        _process.OutputDataReceived += (_, _) => { };
        _process.ErrorDataReceived += (_, _) => { };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (DateTime.UtcNow < deadline)
        {
            try
            {
                using var client = new TcpClient();
                await client.ConnectAsync(IPAddress.Loopback, Port);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(100);
            }
        }

        throw new TimeoutException($"Azurite did not listen on {Port} within 30 s.");
    }

    /// <summary>Stops this Azurite (only the process this started): SIGTERM, so that it saves its data, then waits for it.</summary>
    public async Task StopAsync()
    {
        if (_process is null || _process.HasExited)
        {
            return;
        }

        using (var term = Process.Start("kill", ["-TERM", _process.Id.ToString(CultureInfo.InvariantCulture)]))
        {
            await term.WaitForExitAsync();
        }

        using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        try
        {
            await _process.WaitForExitAsync(grace.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
        _process = null;
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        try
        {
            Directory.Delete(DataFolder, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
