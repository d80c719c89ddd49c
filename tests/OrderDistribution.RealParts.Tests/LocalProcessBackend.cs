using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The real parts as local processes on 127.0.0.1 and free ports, each with its data in a temp folder:
/// redis-server, rabbitmq-server, Azurite from .tools/ and the daprd binary of <see cref="DaprRuntime"/>.
/// </summary>
public sealed class LocalProcessBackend(DaprRuntime runtime) : IRealPartsBackend
{
    private readonly Stack<IAsyncDisposable> _started = new();
    private readonly Func<SidecarPorts> _freePorts = SidecarPorts.Free;

    /// <param name="freePorts">Where each daprd start listens (tests give ports that are taken).</param>
    internal LocalProcessBackend(DaprRuntime daprRuntime, Func<SidecarPorts> freePorts)
        : this(daprRuntime) => _freePorts = freePorts;

    public string Description =>
        $"local processes (daprd {VersionOf(runtime.LocalBinary)} at {runtime.LocalBinary ?? "missing"})";

    /// <summary>
    /// What this machine lacks for these parts of <paramref name="model"/> (null: both models), with how to get each;
    /// empty when all are there.
    /// </summary>
    public static IReadOnlyList<string> MissingParts(DaprRuntime runtime, MessagingModel? model = null) =>
        MissingParts(runtime, model, program => program switch
        {
            "redis-server" => RedisServer.MissingProgram is null,
            "rabbitmq-server" => RabbitMqServer.MissingProgram is null,
            "azurite" => Azurite.IsInstalled,
            _ => ProgramPath.Find(program) is not null,
        });

    /// <param name="installed">Whether a program (node, redis-server, rabbitmq-server, azurite) is there.</param>
    internal static IReadOnlyList<string> MissingParts(DaprRuntime runtime, MessagingModel? model, Func<string,
        bool> installed) =>
        new[]
        {
            runtime.LocalBinary is null
                ? $"daprd (looked in {runtime.LocalBinarySearched}: run `dapr init --slim`, or download the daprd " +
                    $"release binary and set DAPRD_PATH)"
                : null,
            installed(
                "node") ? null : "node (Azurite runs on it: install Node.js 20 or later, e.g. apt-get install nodejs " +
                "npm)",
            installed("azurite") ? null : "Azurite (scripts/install-tools.sh)",
            model is null or MessagingModel.PubSubSingle or MessagingModel.PubSubBulk && !installed("redis-server")
                ? "redis-server (pub/sub model: apt-get install redis-server)" : null,
            model is null or MessagingModel.Bindings && !installed("rabbitmq-server")
                ? "rabbitmq-server (bindings model: apt-get install rabbitmq-server)" : null,
        }.OfType<string>().ToList();

    /// <summary>
    /// What <c>daprd --version</c> prints (e.g. 1.14.4), asked once per binary; "version unknown" if it prints no
    /// version within 10 s.
    /// </summary>
    private static string VersionOf(string? daprd)
    {
        if (daprd is null)
        {
            return "missing";
        }

        lock (Versions)
        {
            if (!Versions.TryGetValue(daprd, out var version))
            {
                Versions[daprd] = version = AskVersion(daprd);
            }

            return version;
        }
    }

    private static readonly Dictionary<string, string> Versions = [];

    private static string AskVersion(string daprd)
    {
        try
        {
            using var process = Process.Start(
                new ProcessStartInfo(daprd, "--version")
                {
                    RedirectStandardOutput = true,
                    RedirectStandardError = true
                })!;
            var output = process.StandardOutput.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(10)))
            {
                process.Kill(entireProcessTree: true);
                return "version unknown";
            }

            var version = output.Result.Trim().Split('\n')[0];
            return version.Length > 0 && char.IsAsciiDigit(version[0]) ? version : "version unknown";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "version unknown";
        }
    }

    /// <summary>The path of the bindings components' <c>host</c> (components-bindings).</summary>
    public const string BindingsVhost = "orders";

    public async Task<StartedParts> StartPartsAsync(MessagingModel model, CancellationToken ct)
    {
        RedisServer? redis = null;
        RabbitMqServer? rabbitMq = null;
        if (model.IsPubSub())
        {
            redis = await RedisServer.StartAsync();
            _started.Push(redis);
        }
        else
        {
            rabbitMq = await RabbitMqServer.StartAsync();
            _started.Push(rabbitMq);
            // The vhost the bindings components connect to, made with scripts/run-local.sh's own calls
            // (docs/brokers.md).
            await LocalRabbitMq.MakeVhostAsync(rabbitMq);
        }

        var azurite = await Azurite.StartAsync();
        _started.Push(azurite);
        return new StartedParts(
            new ComponentAddresses(redis?.Endpoint, rabbitMq is null ? null : $"127.0.0.1:{rabbitMq.Port}"),
            redis?.Endpoint, rabbitMq is null ? null : new Uri(rabbitMq.AmqpUri, BindingsVhost),
                azurite.ConnectionString,
            rabbitMq is null ? null : (arguments, _) => rabbitMq.ControlAsync(arguments));
    }

    /// <summary>
    /// daprd on free ports. A port found free may be taken by another process before daprd binds it: daprd then exits
    /// at start ("bind: address already in use"), and it is started again on new ports, up to <see
    /// cref="BindAttempts"/> times. Returns once daprd listens on its HTTP port, has exited for another reason, or <see
    /// cref="BindTimeout"/> passed.
    /// </summary>
    public async Task<RunningSidecar> StartSidecarAsync(SidecarLaunch launch, CancellationToken ct)
    {
        var daprd = runtime.LocalBinary
            ?? throw new InvalidOperationException("No daprd binary: " + MissingParts(runtime)[0]);
        var earlier = "";
        for (var attempt = 1; ; attempt++)
        {
            var ports = _freePorts();
            var (sidecar, process) = Start(daprd, launch, ports, earlier);
            _started.Push(sidecar);
            if (await ListensAsync(sidecar, process, ports.Http, ct) || attempt == BindAttempts)
            {
                return sidecar;
            }

            var log = await sidecar.LogAsync();
            if (!log.Contains(PortTaken, StringComparison.Ordinal))
            {
                return sidecar;
            }

            earlier =
                $"{log}\n[daprd of {launch.AppId} found a port taken (attempt {attempt} of {BindAttempts}): started " +
                $"again on new ports]\n";
            _started.Pop();
            await sidecar.DisposeAsync();
        }
    }

    /// <summary>How many times a daprd that found one of its ports taken is started.</summary>
    internal const int BindAttempts = 3;

    /// <summary>How long daprd may take to listen on its HTTP port (it does before it waits for its app).</summary>
    internal static readonly TimeSpan BindTimeout = TimeSpan.FromSeconds(30);

    /// <summary>What daprd (and Go's net package) prints when a port it listens on is taken.</summary>
    private const string PortTaken = "address already in use";

    private static (RunningSidecar Sidecar, Process Process) Start(string daprd, SidecarLaunch launch,
        SidecarPorts ports, string earlier)
    {
        var start = new ProcessStartInfo(daprd)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryRoot.Path,
        };
        foreach (var argument in DaprdArguments.For(launch, "127.0.0.1", "127.0.0.1", ports, launch.ResourcesFolders,
            launch.ConfigFile))
        {
            start.ArgumentList.Add(argument);
        }

        if (launch.ApiToken is not null)
        {
            start.Environment["DAPR_API_TOKEN"] = launch.ApiToken;
        }

        var logFolder = Directory.CreateTempSubdirectory($"daprd-{launch.AppId}-").FullName;
        var log = Path.Combine(logFolder, "daprd.log");
        var writer = TextWriter.Synchronized(new StreamWriter(log) { AutoFlush = true });
        writer.Write(earlier);
        var process = Process.Start(start) ?? throw new InvalidOperationException($"{daprd} did not start.");
        process.OutputDataReceived += (_, line) => { if (line.Data is not null) writer.WriteLine(line.Data); };
        process.ErrorDataReceived += (_, line) => { if (line.Data is not null) writer.WriteLine(line.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var sidecar = new RunningSidecar(
            new Uri($"http://127.0.0.1:{ports.Http}"), new Uri($"http://127.0.0.1:{ports.Grpc}"),
            async () =>
            {
                using var reader = new StreamReader(
                    new FileStream(log, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
                return await reader.ReadToEndAsync();
            },
            async () =>
            {
                if (!process.HasExited)
                {
                    return null;
                }

                // Its last lines too: the wait ends once its output is read to the end.
                await process.WaitForExitAsync().WaitAsync(StopTimeout);
                return $"exited with code {process.ExitCode}";
            },
            async () =>
            {
                if (!process.HasExited)
                {
                    process.Kill(entireProcessTree: true);
                }

                await process.WaitForExitAsync().WaitAsync(StopTimeout);
                process.Dispose();
                await writer.DisposeAsync();
                Directory.Delete(logFolder, recursive: true);
            });
        return (sidecar, process);
    }

    /// <summary>How long a killed or exited daprd may take to end and hand over its last output.</summary>
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Whether daprd itself listens on <paramref name="port"/> before it exits or <see cref="BindTimeout"/> passes: on
    /// Linux, a listening socket on that port among its open files (another process holding the port answers a connect
    /// too); elsewhere, anything that answers on the port while daprd runs.
    /// </summary>
    private static async Task<bool> ListensAsync(RunningSidecar sidecar, Process process, int port,
        CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + BindTimeout;
        while (DateTime.UtcNow < deadline && await sidecar.ExitAsync() is null)
        {
            if (OperatingSystem.IsLinux() ? OwnsListeningSocket(process.Id, port) : await AnswersAsync(port, ct))
            {
                return true;
            }

            await Task.Delay(100, ct);
        }

        return false;
    }

    private static readonly string[] SocketTables = ["/proc/net/tcp", "/proc/net/tcp6"];

    /// <summary>
    /// Whether process <paramref name="pid"/> has a socket listening on TCP <paramref name="port"/> (/proc/net/tcp,
    /// tcp6).
    /// </summary>
    internal static bool OwnsListeningSocket(int pid, int port)
    {
        const string Listen = "0A";
        var inodes = new HashSet<string>(StringComparer.Ordinal);
        foreach (var table in SocketTables.Where(File.Exists))
        {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
            foreach (var fields in File.ReadLines(table).Skip(1)
                .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries)))
            {
                if (fields.Length > 9 && fields[3] == Listen
                    && int.Parse(fields[1][(fields[1].LastIndexOf(':') + 1)..],
                        System.Globalization.NumberStyles.HexNumber,
                        System.Globalization.CultureInfo.InvariantCulture) == port)
                {
                    inodes.Add($"socket:[{fields[9]}]");
                }
            }
        }

        try
        {
            return inodes.Count > 0
                && new DirectoryInfo($"/proc/{pid}/fd").EnumerateFiles()
                .Any(fd => fd.LinkTarget is { } target && inodes.Contains(target));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false; // it ended while being read
        }
    }

    private static async Task<bool> AnswersAsync(int port, CancellationToken ct)
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync(IPAddress.Loopback, port, ct);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Stops everything it started, the last first, each whatever the others did.</summary>
    public async ValueTask DisposeAsync()
    {
        var failures = new List<Exception>();
        while (_started.TryPop(out var part))
        {
            try
            {
                await part.DisposeAsync();
            }
            catch (Exception e) when (e is InvalidOperationException or IOException or UnauthorizedAccessException)
            {
                failures.Add(e);
            }
        }

        if (failures.Count > 0)
        {
            throw new AggregateException("Some real parts did not stop cleanly.", failures);
        }
    }
}
