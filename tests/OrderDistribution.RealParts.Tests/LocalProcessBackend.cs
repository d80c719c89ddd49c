using System.Diagnostics;
using OrderDistribution.LoadTool;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The real parts as local processes on 127.0.0.1 and free ports, each with its data in a temp folder:
/// redis-server, rabbitmq-server, Azurite from .tools/ and the daprd binary of <see cref="DaprRuntime"/>.
/// </summary>
public sealed class LocalProcessBackend(DaprRuntime runtime) : IRealPartsBackend
{
    private readonly Stack<IAsyncDisposable> _started = new();

    public string Description => $"local processes (daprd {runtime.LocalBinary ?? "missing"})";

    /// <summary>What this machine lacks for these parts, with how to get each; empty when all are there.</summary>
    public static IReadOnlyList<string> MissingParts(DaprRuntime runtime) =>
        new[]
        {
            runtime.LocalBinary is null
                ? $"daprd (looked in {runtime.LocalBinarySearched}: run `dapr init --slim`, or download the daprd release binary and set DAPRD_PATH)"
                : null,
            RedisServer.MissingProgram is { } redis ? $"{redis} (apt-get install redis-server)" : null,
            RabbitMqServer.MissingProgram is { } rabbitMq ? $"{rabbitMq} (apt-get install rabbitmq-server)" : null,
            Azurite.IsInstalled ? null : "Azurite (scripts/install-tools.sh)",
        }.OfType<string>().ToList();

    /// <summary>The path of the bindings components' <c>host</c> (components-bindings).</summary>
    public const string BindingsVhost = "orders";

    public async Task<StartedParts> StartPartsAsync(ComponentsModel model, CancellationToken ct)
    {
        RedisServer? redis = null;
        RabbitMqServer? rabbitMq = null;
        if (model == ComponentsModel.Pubsub)
        {
            redis = await RedisServer.StartAsync();
            _started.Push(redis);
        }
        else
        {
            rabbitMq = await RabbitMqServer.StartAsync();
            _started.Push(rabbitMq);
            // The vhost the bindings components connect to, made as scripts/run-local.sh makes it (docs/brokers.md).
            await rabbitMq.ControlAsync("add_vhost", BindingsVhost, "--default-queue-type", "quorum");
            await rabbitMq.ControlAsync("set_permissions", "-p", BindingsVhost, "guest", ".*", ".*", ".*");
        }

        var azurite = await Azurite.StartAsync();
        _started.Push(azurite);
        return new StartedParts(
            new ComponentAddresses(redis?.Endpoint, rabbitMq is null ? null : $"127.0.0.1:{rabbitMq.Port}"),
            redis?.Endpoint, rabbitMq is null ? null : new Uri(rabbitMq.AmqpUri, BindingsVhost), azurite.ConnectionString);
    }

    public Task<RunningSidecar> StartSidecarAsync(SidecarLaunch launch, CancellationToken ct)
    {
        var daprd = runtime.LocalBinary ?? throw new InvalidOperationException("No daprd binary: " + MissingParts(runtime)[0]);
        var ports = SidecarPorts.Free();
        var start = new ProcessStartInfo(daprd)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryRoot.Path,
        };
        foreach (var argument in DaprdArguments.For(launch, "127.0.0.1", "127.0.0.1", ports, launch.ResourcesFolders, launch.ConfigFile))
        {
            start.ArgumentList.Add(argument);
        }

        if (launch.ApiToken is not null)
        {
            start.Environment["DAPR_API_TOKEN"] = launch.ApiToken;
        }

        var logFolder = Directory.CreateTempSubdirectory($"daprd-{launch.AppId}-").FullName;
        var log = Path.Combine(logFolder, "daprd.log");
        var process = Process.Start(start) ?? throw new InvalidOperationException($"{daprd} did not start.");
        var writer = TextWriter.Synchronized(new StreamWriter(log) { AutoFlush = true });
        process.OutputDataReceived += (_, line) => { if (line.Data is not null) writer.WriteLine(line.Data); };
        process.ErrorDataReceived += (_, line) => { if (line.Data is not null) writer.WriteLine(line.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var sidecar = new RunningSidecar(
            new Uri($"http://127.0.0.1:{ports.Http}"), new Uri($"http://127.0.0.1:{ports.Grpc}"),
            async () =>
            {
                using var reader = new StreamReader(new FileStream(log, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
                return await reader.ReadToEndAsync();
            },
            async () =>
            {
                if (!process.HasExited)
                {
                    return null;
                }

                // Its last lines too: the wait ends once its output is read to the end.
                await process.WaitForExitAsync();
                return $"exited with code {process.ExitCode}";
            },
            async () =>
            {
                if (!process.HasExited)
                {
                    process.Kill(entireProcessTree: true);
                }

                await process.WaitForExitAsync();
                process.Dispose();
                await writer.DisposeAsync();
                Directory.Delete(logFolder, recursive: true);
            });
        _started.Push(sidecar);
        return Task.FromResult(sidecar);
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
