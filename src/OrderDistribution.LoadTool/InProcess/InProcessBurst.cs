using System.Net;
using System.Net.Sockets;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using OrderDistribution.SidecarEmulator.Hosting;
using OrderDistribution.SidecarEmulator.Storage;
using OrderDistribution.Storage;
using Spectre.Console;

namespace OrderDistribution.LoadTool.InProcess;

/// <summary>
/// The main job without Dapr, Redis or RabbitMQ: the trio in this process behind the sidecar emulator
/// (<see cref="EmulatedTrio"/>), storing into the store given, or with none given into the local Azurite, which it
/// starts on a free port (data in a temporary folder, both gone at the end; what a killed run left is stopped and
/// removed by the next) when none answers. The store is opened
/// first (<see cref="OpenAsync"/>), so that a store that refuses is named before the trio starts
/// (<see cref="StartTrioAsync"/>). The burst goes on the ingress queue at once, as <c>run</c> schedules it, and is
/// watched in the outboxes as <c>run</c> watches it.
/// </summary>
public sealed class InProcessBurst : IAsyncDisposable
{
    /// <summary>The temporary folders of the Azurites it starts begin with this.</summary>
    public const string AzuriteFolderPrefix = "order-load-azurite-";

    private const string LocalAzurite = "UseDevelopmentStorage=true";

    private readonly ThrowawayAzurite? _azurite;
    private readonly string _connectionString;
    private EmulatedTrio? _trio;

    private InProcessBurst(ThrowawayAzurite? azurite, string connectionString, string? leftovers)
    {
        _azurite = azurite;
        _connectionString = connectionString;
        Leftovers = leftovers;
        Storage = OutboxStorage.Open(
            new StorageOptions { ConnectionString = connectionString }, OrderTopology.Outboxes, TimeProvider.System);
    }

    /// <summary>
    /// One line on what an earlier run killed before its end left and this one stopped and removed; else null.
    /// </summary>
    public string? Leftovers { get; }

    public OutboxStorage Storage { get; }

    /// <summary>Where the blobs go: the Azurite this run started, or the one that answered.</summary>
    public string StorageEndpoint => Storage.Endpoint;

    public bool StartedAzurite => _azurite is not null;

    /// <summary>
    /// The store to measure: the one given, as it is (the caller checks that it answers); none given, the local
    /// Azurite, started here when none answers.
    /// </summary>
    /// <param name="connectionString">
    /// The store the user gave (--storage or Storage__ConnectionString), or null.
    /// </param>
    /// <exception cref="LoadToolException">
    /// Azurite must be started, but Node.js or Azurite is not installed.
    /// </exception>
    public static async Task<InProcessBurst> OpenAsync(string? connectionString, CancellationToken cancellationToken)
    {
        var leftovers = ThrowawayAzurite.RemoveLeftovers(AzuriteFolderPrefix);
        if (connectionString is not null || await AnswersAsync(LocalAzurite, cancellationToken))
        {
            return new InProcessBurst(null, connectionString ?? LocalAzurite, leftovers);
        }

        if (Azurite.MissingPrerequisite() is { } missing)
        {
            throw new LoadToolException(
                missing, "Or pass --storage with the connection string of a store that runs.", ExitCodes.Unreachable);
        }

        var azurite = await ThrowawayAzurite.StartAsync(AzuriteFolderPrefix);
        return new InProcessBurst(azurite, azurite.Azurite.ConnectionString, leftovers);
    }

    /// <summary>Starts the trio over the store and waits until it can take a burst.</summary>
    /// <param name="console">Where the apps' log lines go, above any live display on it.</param>
    public async Task StartTrioAsync(MessagingModel model, IAnsiConsole console, CancellationToken cancellationToken)
    {
        _trio = await EmulatedTrio.StartAsync(new EmulatedTrioOptions
        {
            StorageConnectionString = _connectionString,
            Model = model,
            // As under dapr run, the apps print what they log at Warning and above; a faultless burst prints nothing.
            Settings = new Dictionary<string, string?> { ["Logging:LogLevel:Default"] = "Warning" },
            ConfigureLogging = (member, logging) => AppLogLines.Use(console, member, logging),
        }, cancellationToken);
        await _trio.WaitUntilReadyAsync(TimeSpan.FromSeconds(30), cancellationToken);
    }

    /// <summary>Puts every order (and the poison) on the ingress queue at once.</summary>
    /// <returns>When they were scheduled.</returns>
    public DateTimeOffset Schedule(OrderSet set)
    {
        var scheduledAt = Storage.Time.GetUtcNow();
        var trio = _trio ?? throw new InvalidOperationException("The trio has not started.");
        var poison = set.Poison.Select(p => System.Text.Encoding.UTF8.GetBytes(p.Payload));
        trio.Schedule(set.Orders.Select(OrderJson.Serialize).Concat(poison));
        return scheduledAt;
    }

    /// <summary>
    /// Once every message is settled (or 30 s have passed), how many of the set's poison orders the apps kept on the
    /// dead-letter queue.
    /// </summary>
    public async Task<int> PoisonDeadLetteredAsync(OrderSet set)
    {
        var trio = _trio ?? throw new InvalidOperationException("The trio has not started.");
        await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromSeconds(30));
        return DeadLetterCount.Of(set.Poison, trio.DeadLetters);
    }

    public async ValueTask DisposeAsync()
    {
        if (_trio is not null)
        {
            await _trio.DisposeAsync();
        }

        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }
    }

    /// <summary>
    /// Whether the blob endpoint of a local connection string accepts a connection; a remote store is taken as given.
    /// </summary>
    private static async Task<bool> AnswersAsync(string connectionString, CancellationToken cancellationToken)
    {
        var options = new StorageOptions { ConnectionString = connectionString };
        var endpoint = BlobClientFactory.Create(options, TimeSpan.FromSeconds(5), maxRetries: 0).Uri;
        if (!endpoint.IsLoopback)
        {
            return true;
        }

        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync(IPAddress.Loopback, endpoint.Port, cancellationToken);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
