using System.Net;
using System.Net.Sockets;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.SidecarEmulator;
using OrderDistribution.Storage;
using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.InProcess;

/// <summary>
/// The main job without Dapr, Redis or RabbitMQ: the trio in this process behind the sidecar emulator
/// (<see cref="EmulatedTrio"/>), storing into Azurite, which it starts on a free port (data in a temporary folder,
/// both gone at the end; what a killed run left is stopped and removed by the next) unless one answers at the address
/// given. The burst goes on the ingress queue at once, as
/// <c>run</c> schedules it, and is watched in the outboxes as <c>run</c> watches it.
/// </summary>
public sealed class InProcessBurst : IAsyncDisposable
{
    /// <summary>The temporary folders of the Azurites it starts begin with this.</summary>
    public const string AzuriteFolderPrefix = "order-load-azurite-";

    private readonly ThrowawayAzurite? _azurite;
    private readonly EmulatedTrio _trio;

    private InProcessBurst(ThrowawayAzurite? azurite, EmulatedTrio trio, OutboxStorage storage, string? leftovers)
    {
        _azurite = azurite;
        _trio = trio;
        Storage = storage;
        Leftovers = leftovers;
    }

    /// <summary>One line on what an earlier run killed before its end left and this one stopped and removed; else null.</summary>
    public string? Leftovers { get; }

    public OutboxStorage Storage { get; }

    /// <summary>Where the blobs go: the Azurite this run started, or the one that answered.</summary>
    public string StorageEndpoint => Storage.Endpoint;

    public bool StartedAzurite => _azurite is not null;

    /// <param name="connectionString">Azurite's (or any store's) connection string; when it names a local Azurite that does not answer, one is started.</param>
    /// <exception cref="LoadToolException">Azurite must be started, but Node.js or Azurite is not installed.</exception>
    public static async Task<InProcessBurst> StartAsync(MessagingModel model, string connectionString, CancellationToken cancellationToken)
    {
        var leftovers = ThrowawayAzurite.RemoveLeftovers(AzuriteFolderPrefix);
        ThrowawayAzurite? azurite = null;
        if (!await AnswersAsync(connectionString, cancellationToken))
        {
            if (Azurite.MissingPrerequisite() is { } missing)
            {
                throw new LoadToolException(missing, "Or pass --storage with the connection string of a store that runs.", ExitCodes.Unreachable);
            }

            azurite = await ThrowawayAzurite.StartAsync(AzuriteFolderPrefix);
            connectionString = azurite.Azurite.ConnectionString;
        }

        try
        {
            var trio = await EmulatedTrio.StartAsync(new EmulatedTrioOptions
            {
                StorageConnectionString = connectionString,
                Model = model,
                // As under dapr run, the apps print what they log at Warning and above; a faultless burst prints nothing.
                Settings = new Dictionary<string, string?> { ["Logging:LogLevel:Default"] = "Warning" },
            }, cancellationToken);
            var storage = OutboxStorage.Open(new StorageOptions { ConnectionString = connectionString }, OrderTopology.Outboxes);
            var burst = new InProcessBurst(azurite, trio, storage, leftovers);
            await trio.WaitUntilReadyAsync(TimeSpan.FromSeconds(30), cancellationToken);
            return burst;
        }
        catch
        {
            if (azurite is not null)
            {
                await azurite.DisposeAsync();
            }

            throw;
        }
    }

    /// <summary>Puts every order (and the poison) on the ingress queue at once.</summary>
    /// <returns>When they were scheduled.</returns>
    public DateTimeOffset Schedule(OrderSet set)
    {
        var scheduledAt = DateTimeOffset.UtcNow;
        _trio.Schedule(set.Orders.Select(OrderJson.Serialize).Concat(set.Poison.Select(p => System.Text.Encoding.UTF8.GetBytes(p.Payload))));
        return scheduledAt;
    }

    public async ValueTask DisposeAsync()
    {
        await _trio.DisposeAsync();
        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }
    }

    /// <summary>Whether the blob endpoint of a local connection string accepts a connection; a remote store is taken as given.</summary>
    private static async Task<bool> AnswersAsync(string connectionString, CancellationToken cancellationToken)
    {
        var endpoint = BlobClientFactory.Create(new StorageOptions { ConnectionString = connectionString }, TimeSpan.FromSeconds(5), maxRetries: 0).Uri;
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
