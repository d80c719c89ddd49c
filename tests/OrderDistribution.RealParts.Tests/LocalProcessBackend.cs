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
        $"local processes (daprd {LocalDaprd.VersionOf(runtime.LocalBinary)} at {runtime.LocalBinary ?? "missing"})";

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
            var (sidecar, process) = LocalDaprd.Start(daprd, launch, ports, earlier);
            _started.Push(sidecar);
            if (await DaprdListening.ListensAsync(sidecar, process, ports.Http, ct) || attempt == BindAttempts)
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
