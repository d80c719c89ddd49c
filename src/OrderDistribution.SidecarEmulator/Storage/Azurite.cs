using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace OrderDistribution.SidecarEmulator.Storage;

/// <summary>
/// A real Azurite blob service on 127.0.0.1, started for the tests and for in-process runs, and stopped with this
/// object. Azurite is installed by .ci/run (or scripts/install-tools.sh) into the repository's .tools/, or found on
/// PATH.
/// </summary>
public sealed class Azurite : IAsyncDisposable
{
    /// <summary>Azurite's documented, public development account; not a secret.</summary>
    public const string AccountName = "devstoreaccount1";

    public const string AccountKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private readonly Process _process;

    private Azurite(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    /// <summary>Azurite's process id.</summary>
    public int ProcessId => _process.Id;

    public string ConnectionString => ConnectionStringFor(Port);

    public static string ConnectionStringFor(int port) =>
        $"DefaultEndpointsProtocol=http;AccountName={AccountName};AccountKey={AccountKey};" +
        $"BlobEndpoint=http://127.0.0.1:{port}/{AccountName};";

    /// <summary>How long Azurite has to listen after its start.</summary>
    private static readonly TimeSpan ListenTimeout = TimeSpan.FromSeconds(30);

    /// <param name="dataFolder">Keep the data on disk there; in memory by default (fast for small tests,
    /// but slow past about 10,000 blobs).</param>
    /// <param name="port">A port of its own, to start Azurite again where it was; a free one by default.</param>
    public static Task<Azurite> StartAsync(string? dataFolder = null, int? port = null) =>
        StartAsync(
            MissingPrerequisite() is { } missing ? throw new InvalidOperationException(missing) : FindExecutable()!,
            dataFolder, port, ListenTimeout);

    /// <param name="executable">azurite-blob, or a program standing in for it.</param>
    /// <exception cref="TimeoutException">It did not listen within <paramref name="listenTimeout"/>; it is
    /// stopped.</exception>
    internal static async Task<Azurite> StartAsync(
        string executable, string? dataFolder, int? port, TimeSpan listenTimeout)
    {
        var blobPort = port ?? FreePort();
        var start = new ProcessStartInfo(executable)
        {
            ArgumentList =
            {
                "--blobHost", "127.0.0.1", "--blobPort",
                    blobPort.ToString(System.Globalization.CultureInfo.InvariantCulture),
                "--skipApiVersionCheck", "--loose", "--silent",
            },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        if (dataFolder is null)
        {
            start.ArgumentList.Add("--inMemoryPersistence");
        }
        else
        {
            start.ArgumentList.Add("--location");
            start.ArgumentList.Add(dataFolder);
        }

        var process = Process.Start(start)!;
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var azurite = new Azurite(process, blobPort);
        AppDomain.CurrentDomain.ProcessExit += azurite.StopWithOwner;
        try
        {
            await azurite.WaitUntilListeningAsync(listenTimeout);
        }
        catch
        {
            // No caller holds an Azurite that failed to start, so none would stop it (or free its data folder).
            await azurite.DisposeAsync();
            throw;
        }

        return azurite;
    }

    /// <summary>Whether Azurite is there to start (.tools/ or PATH).</summary>
    public static bool IsInstalled => FindExecutable() is not null;

    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    public async ValueTask DisposeAsync()
    {
        // Killed before the exit handler is taken off: a process exit (a second TERM) between the two would
        // otherwise leave Azurite running.
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        AppDomain.CurrentDomain.ProcessExit -= StopWithOwner;
        _process.Dispose();
    }

    /// <summary>
    /// An Azurite does not outlive a process that exits before disposing it (Environment.Exit, a return from Main
    /// while a command still unwinds): it is stopped on the way out. A bare TERM raises no process exit: the load tool
    /// handles TERM itself.
    /// </summary>
    private void StopWithOwner(object? sender, EventArgs e)
    {
        try
        {
            _process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // Already ended.
        }
    }

    private async Task WaitUntilListeningAsync(TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"Azurite exited at start with code {_process.ExitCode}.");
            }

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

        throw new TimeoutException($"Azurite did not listen on port {Port} within {timeout.TotalSeconds:0.#} s.");
    }

    /// <summary>What is missing to start Azurite, in one line with how to get it; null when nothing is.</summary>
    public static string? MissingPrerequisite() =>
        FindOnPath("node") is null
            ? "Node.js is missing (Azurite runs on it): install Node.js 20 or later (apt-get install nodejs npm, or " +
                "brew install node), then run scripts/install-tools.sh."
            : FindExecutable() is null
                ? "Azurite is not installed: run scripts/install-tools.sh (npm installs it into .tools/), or put " +
                    "azurite-blob on PATH."
                : null;

    /// <summary>The repository's .tools/ above this program (or the current folder), else PATH.</summary>
    private static string? FindExecutable() =>
        new[] { AppContext.BaseDirectory, Environment.CurrentDirectory }
            .SelectMany(start => Ancestors(new DirectoryInfo(start)))
            .Select(folder => Path.Combine(folder.FullName, ".tools", "node_modules", ".bin", "azurite-blob"))
            .FirstOrDefault(File.Exists) ?? FindOnPath("azurite-blob");

    private static string? FindOnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(folder => Path.Combine(folder, program))
            .FirstOrDefault(File.Exists);

    private static IEnumerable<DirectoryInfo> Ancestors(DirectoryInfo? folder)
    {
        for (; folder is not null; folder = folder.Parent)
        {
            yield return folder;
        }
    }
}
