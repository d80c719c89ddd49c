using DotNet.Testcontainers.Builders;
using DotNet.Testcontainers.Configurations;
using DotNet.Testcontainers.Containers;
using OrderDistribution.Messaging;
using Testcontainers.RabbitMq;
using Testcontainers.Redis;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The real parts as Docker containers: Redis and RabbitMQ (Testcontainers' modules), Azurite and daprd (generic
/// containers: no module for them is on the feed). The sidecars reach the brokers and their apps through the test's
/// host (Testcontainers' host-port exposure), so every part is where it would be under <c>dapr run</c>: brokers and
/// apps on the host, a sidecar per app.
/// </summary>
public sealed class ContainerBackend(DaprRuntime runtime) : IRealPartsBackend
{
    /// <summary>The host name a container reaches exposed host ports at.</summary>
    private const string Host = "host.testcontainers.internal";

    private const string RedisImage = "redis:7.4";
    private const string RabbitMqImage = "rabbitmq:3.13";

    /// <summary>The Azurite scripts/install-tools.sh installs for local runs.</summary>
    private const string AzuriteImage = "mcr.microsoft.com/azure-storage/azurite:3.37.0";

    private const int AzuriteBlobPort = 10000;

    private readonly Stack<IAsyncDisposable> _started = new();

    public string Description => $"Testcontainers on Docker (daprd image {runtime.Image})";

    /// <summary>Null when a Docker engine answers; else why not.</summary>
    public static async Task<string?> DockerMissingAsync()
    {
        try
        {
            if (TestcontainersSettings.OS.DockerEndpointAuthConfig is not { } endpoint)
            {
                return "no Docker engine found";
            }

            using var client = endpoint.GetDockerClientBuilder(Guid.NewGuid()).Build();
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await client.System.PingAsync(timeout.Token);
            return null;
        }
#pragma warning disable CA1031 // Any failure to reach the engine means the same here: no Docker for these tests.
        catch (Exception e)
#pragma warning restore CA1031
        {
            return $"no Docker engine answered ({e.GetType().Name}: {e.Message.Split('\n')[0]})";
        }
    }

    public async Task<StartedParts> StartPartsAsync(MessagingModel model, CancellationToken ct)
    {
        string? redisForSidecars = null, redisForTests = null, rabbitMqForSidecars = null;
        Uri? rabbitMqForTests = null;
        Func<string[], CancellationToken, Task>? rabbitMqControl = null;
        if (model.IsPubSub())
        {
            var redis = await StartAsync(new RedisBuilder(RedisImage).Build(), ct);
            var port = redis.GetMappedPublicPort(RedisBuilder.RedisPort);
            redisForTests = $"{redis.Hostname}:{port}";
            redisForSidecars = await ExposedAsync(port, ct);
        }
        else
        {
            // The components log in as guest, which the image admits from other hosts (loopback_users.guest = false).
            var rabbitMq = await StartAsync(
                new RabbitMqBuilder(RabbitMqImage).WithUsername("guest").WithPassword("guest").Build(), ct);
            // The vhost the bindings components connect to, made as scripts/run-local.sh makes it (docs/brokers.md).
            await ControlAsync(rabbitMq, ct, "add_vhost", LocalProcessBackend.BindingsVhost, "--default-queue-type",
                "quorum");
            await ControlAsync(rabbitMq, ct, "set_permissions", "-p", LocalProcessBackend.BindingsVhost, "guest", ".*",
                ".*", ".*");
            var port = rabbitMq.GetMappedPublicPort(RabbitMqBuilder.RabbitMqPort);
            rabbitMqForTests = new Uri(
                $"amqp://guest:guest@{rabbitMq.Hostname}:{port}/{LocalProcessBackend.BindingsVhost}");
            rabbitMqForSidecars = await ExposedAsync(port, ct);
            rabbitMqControl = (arguments, token) => ControlAsync(rabbitMq, token, arguments);
        }

        var azurite = await StartAsync(new ContainerBuilder(AzuriteImage)
            .WithCommand("azurite-blob", "--blobHost", "0.0.0.0", "--blobPort", $"{AzuriteBlobPort}",
                "--skipApiVersionCheck", "--loose", "--inMemoryPersistence")
            .WithPortBinding(AzuriteBlobPort, assignRandomHostPort: true)
            .WithWaitStrategy(Wait.ForUnixContainer().UntilInternalTcpPortIsAvailable(AzuriteBlobPort))
            .Build(), ct);
        return new StartedParts(
            new ComponentAddresses(redisForSidecars, rabbitMqForSidecars), redisForTests, rabbitMqForTests,
            Azurite.ConnectionStringFor(azurite.GetMappedPublicPort(AzuriteBlobPort))
                .Replace("127.0.0.1", azurite.Hostname, StringComparison.Ordinal),
            rabbitMqControl);
    }

    public async Task<RunningSidecar> StartSidecarAsync(SidecarLaunch launch, CancellationToken ct)
    {
        await TestcontainersSettings.ExposeHostPortsAsync((ushort)launch.AppPort, ct);
        var ports = SidecarPorts.InContainer;
        var folders = launch.ResourcesFolders.Select((_, i) => $"/resources/{i}").ToList();
        var config = $"/config/{Path.GetFileName(launch.ConfigFile)}";
        var builder = new ContainerBuilder(runtime.Image)
            .WithResourceMapping(new FileInfo(launch.ConfigFile), "/config/")
            .WithPortBinding(ports.Http, assignRandomHostPort: true)
            .WithPortBinding(ports.Grpc, assignRandomHostPort: true)
            .WithCommand(["./daprd", .. DaprdArguments.For(launch, Host, "0.0.0.0", ports, folders, config)]);
        for (var i = 0; i < folders.Count; i++)
        {
            builder = builder.WithResourceMapping(new DirectoryInfo(launch.ResourcesFolders[i]), folders[i]);
        }

        if (launch.ApiToken is not null)
        {
            builder = builder.WithEnvironment("DAPR_API_TOKEN", launch.ApiToken);
        }

        var daprd = await StartAsync(builder.Build(), ct);
        return new RunningSidecar(
            new Uri($"http://{daprd.Hostname}:{daprd.GetMappedPublicPort(ports.Http)}"),
            new Uri($"http://{daprd.Hostname}:{daprd.GetMappedPublicPort(ports.Grpc)}"),
            async () =>
            {
                var (stdout, stderr) = await daprd.GetLogsAsync(timestampsEnabled: false);
                return stdout + stderr;
            },
            async () => daprd.State == TestcontainersStates.Exited ? $"exited with code " +
                $"{await daprd.GetExitCodeAsync()}" : null,
            daprd.DisposeAsync);
    }

    public async ValueTask DisposeAsync()
    {
        while (_started.TryPop(out var container))
        {
            await container.DisposeAsync();
        }
    }

    private async Task<T> StartAsync<T>(T container, CancellationToken ct) where T : IContainer
    {
        _started.Push(container);
        await container.StartAsync(ct);
        return container;
    }

    private static async Task ControlAsync(RabbitMqContainer rabbitMq, CancellationToken ct, params string[] arguments)
    {
        var result = await rabbitMq.ExecAsync(["rabbitmqctl", .. arguments], ct);
        if (result.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"rabbitmqctl {string.Join(' ', arguments)} exited {result.ExitCode}: {result.Stderr}");
        }
    }

    /// <summary>A host port the sidecar containers can reach, as host:port from inside them.</summary>
    private static async Task<string> ExposedAsync(ushort port, CancellationToken ct)
    {
        await TestcontainersSettings.ExposeHostPortsAsync(port, ct);
        return $"{Host}:{port}";
    }
}
