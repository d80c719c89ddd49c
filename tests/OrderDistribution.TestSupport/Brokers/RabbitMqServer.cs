using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;

namespace OrderDistribution.TestSupport.Brokers;

/// <summary>
/// A real RabbitMQ node for a test: AMQP on 127.0.0.1 and a free port, Erlang distribution on another free port, a
/// node name of its own, its database, logs, config, plugins list and Erlang cookie in a temp folder of its own (so
/// it shares nothing with a RabbitMQ the machine runs, and no plugin opens a port unless asked: the management API then
/// listens on 127.0.0.1 and a free port). <see cref="Kill"/> is a kill -9
/// of the node; <see cref="RestartAsync"/> starts the same node again on the same ports and database. Disposing
/// stops the node by its name (rabbitmqctl stop), kills it if that fails, and deletes the folder. The login is the
/// default guest/guest, which RabbitMQ accepts over loopback only.
/// </summary>
public sealed class RabbitMqServer : IAsyncDisposable
{
    /// <summary>The program a test needs; its absence is what a skip names.</summary>
    public const string Program = "rabbitmq-server";

    // Debian's /usr/sbin/rabbitmq-server switches to the rabbitmq user when run as root (which could not write the
    // temp folder); the scripts it wraps run the node as the caller.
    private const string DebianScripts = "/usr/lib/rabbitmq/bin";

    private readonly BrokerProcess _process;
    private readonly string _scripts;
    private readonly Dictionary<string, string> _environment;

    private RabbitMqServer(string scripts, int port, int distributionPort, string dataFolder)
    {
        _scripts = scripts;
        Port = port;
        DataFolder = dataFolder;
        NodeName = $"order-distribution-test-{port.ToString(CultureInfo.InvariantCulture)}@localhost";
        _environment = new Dictionary<string, string>
        {
            ["HOME"] = dataFolder,
            ["RABBITMQ_NODENAME"] = NodeName,
            ["RABBITMQ_NODE_IP_ADDRESS"] = "127.0.0.1",
            ["RABBITMQ_NODE_PORT"] = port.ToString(CultureInfo.InvariantCulture),
            ["RABBITMQ_DIST_PORT"] = distributionPort.ToString(CultureInfo.InvariantCulture),
            ["RABBITMQ_MNESIA_BASE"] = Path.Combine(dataFolder, "mnesia"),
            ["RABBITMQ_LOG_BASE"] = Path.Combine(dataFolder, "log"),
            ["RABBITMQ_CONFIG_FILE"] = Path.Combine(dataFolder, "rabbitmq.conf"),
            ["RABBITMQ_ENABLED_PLUGINS_FILE"] = Path.Combine(dataFolder, "enabled_plugins"),
            ["RABBITMQ_CONF_ENV_FILE"] = Path.Combine(dataFolder, "rabbitmq-env.conf"),
            ["RABBITMQ_PID_FILE"] = Path.Combine(dataFolder, "rabbitmq.pid"),
        };
        _process = new BrokerProcess(
            Program,
            () => StartInfo(Path.Combine(scripts, "rabbitmq-server"), []),
            port,
            Path.Combine(dataFolder, "rabbitmq-server.log"),
            TimeSpan.FromSeconds(60),
            AnswersAmqpAsync);
    }

    /// <summary><see cref="Program"/> when it is not installed (the test should skip naming it), else null.</summary>
    public static string? MissingProgram => FindScripts() is null ? Program : null;

    /// <summary>The AMQP port on 127.0.0.1.</summary>
    public int Port { get; }

    public string NodeName { get; }

    public string DataFolder { get; }

    /// <summary>The AMQP URI with the guest login, as the bindings.rabbitmq <c>host</c> takes it.</summary>
    public Uri AmqpUri => new($"amqp://guest:guest@127.0.0.1:{Port.ToString(CultureInfo.InvariantCulture)}/");

    /// <summary>
    /// What a shell needs for a plain <c>rabbitmqctl</c> (no <c>-n</c>) to reach this node, as a script calls it: the
    /// node's name, its Erlang cookie's home, and PATH with the node's own scripts first.
    /// </summary>
    public IReadOnlyDictionary<string, string> ShellEnvironment =>
        new Dictionary<string, string>(_environment)
        {
            ["PATH"] = _scripts + Path.PathSeparator + System.Environment.GetEnvironmentVariable("PATH"),
        };

    /// <summary>The management API (HTTP) of a node started with it, on 127.0.0.1 and a free port; else null.</summary>
    public Uri? ManagementApi { get; private init; }

    /// <param name="configuration">rabbitmq.conf lines added to the node's own (listener, loopback); none by
    /// default.</param>
    /// <param name="management">Whether the node runs the <c>rabbitmq_management</c> plugin.</param>
    public static async Task<RabbitMqServer> StartAsync(
        IEnumerable<string>? configuration = null, bool management = false)
    {
        var scripts = FindScripts() ?? throw new InvalidOperationException($"{Program} is not installed.");
        var folder = Directory.CreateTempSubdirectory("rabbitmq-").FullName;
        var apiPort = management ? BrokerProcess.FreePort() : 0;
        var server = new RabbitMqServer(scripts, BrokerProcess.FreePort(), BrokerProcess.FreePort(), folder)
        {
            ManagementApi = management
                ? new Uri($"http://127.0.0.1:{apiPort.ToString(CultureInfo.InvariantCulture)}/")
                : null,
        };
        string[] api = management
            ?
            [
                "management.tcp.ip = 127.0.0.1",
                $"management.tcp.port = {apiPort.ToString(CultureInfo.InvariantCulture)}",
            ]
            : [];
        File.WriteAllLines(server._environment["RABBITMQ_CONFIG_FILE"], [.. configuration ?? [], .. api]);
        File.WriteAllText(
            server._environment["RABBITMQ_ENABLED_PLUGINS_FILE"], management ? "[rabbitmq_management]." : "[].");
        File.WriteAllText(server._environment["RABBITMQ_CONF_ENV_FILE"], "");
        return await BrokerProcess.StartOrDisposeAsync(server, server._process);
    }

    /// <summary>kill -9 (SIGKILL) of the node and its helpers: nothing is flushed.</summary>
    public void Kill() => _process.Kill();

    /// <summary>Starts the same node again (after <see cref="Kill"/>) on the same ports and database.</summary>
    public Task RestartAsync() => _process.RestartAsync();

    /// <summary>
    /// Runs rabbitmqctl against this node (e.g. <c>list_queues name messages</c>) and returns its output.
    /// </summary>
    public async Task<string> ControlAsync(params string[] arguments)
    {
        var start = StartInfo(Path.Combine(_scripts, "rabbitmqctl"), ["-n", NodeName, .. arguments]);
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        using var control = Process.Start(start)!;
        var output = control.StandardOutput.ReadToEndAsync();
        var error = control.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await control.WaitForExitAsync(timeout.Token);
        if (control.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"rabbitmqctl {string.Join(' ', arguments)} exited with {control.ExitCode}: {await error}");
        }

        return await output;
    }

    public async ValueTask DisposeAsync()
    {
        if (_process.Running)
        {
            try
            {
                await ControlAsync("stop");
            }
            catch (Exception stop) when (stop is InvalidOperationException or OperationCanceledException)
            {
                // Killed below.
            }
        }

        _process.Dispose();
        Directory.Delete(DataFolder, recursive: true);
    }

    /// <summary>
    /// Whether the node answers the AMQP 0-9-1 protocol header with a method frame (connection.start): the node
    /// itself speaks on the port, not just a socket that takes connections.
    /// </summary>
    private static async Task<bool> AnswersAmqpAsync(NetworkStream stream)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        await stream.WriteAsync("AMQP\0\0\u0009\u0001"u8.ToArray(), timeout.Token);
        var frameType = new byte[1];
        return await stream.ReadAsync(frameType, timeout.Token) == 1 && frameType[0] == 1;
    }

    private static string? FindScripts()
    {
        if (File.Exists(Path.Combine(DebianScripts, "rabbitmq-server")))
        {
            return DebianScripts;
        }

        var onPath = ProgramPath.Find(Program);
        return onPath is null ? null : Path.GetDirectoryName(onPath);
    }

    private ProcessStartInfo StartInfo(string program, IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo(program);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in _environment)
        {
            start.Environment[name] = value;
        }

        return start;
    }
}
