using System.Net;
using System.Net.Sockets;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.SidecarEmulator;
using OrderDistribution.Storage;
using OrderDistribution.Messaging;
using Spectre.Console;

namespace OrderDistribution.LoadTool.InProcess;

/// <summary>
/// The main job without Dapr, Redis or RabbitMQ: the trio in this process behind the sidecar emulator
/// (<see cref="EmulatedTrio"/>), storing into Azurite, which it starts on a free port (data in a temporary folder,
/// both gone at the end) unless one answers at the address given. The burst goes on the ingress queue at once, as
/// <c>run</c> schedules it, and is watched in the outboxes as <c>run</c> watches it.
/// </summary>
public sealed class InProcessBurst : IAsyncDisposable
{
    private readonly Azurite? _azurite;
    private readonly DirectoryInfo? _azuriteData;
    private readonly EmulatedTrio _trio;

    private InProcessBurst(Azurite? azurite, DirectoryInfo? azuriteData, EmulatedTrio trio, OutboxStorage storage)
    {
        _azurite = azurite;
        _azuriteData = azuriteData;
        _trio = trio;
        Storage = storage;
    }

    public OutboxStorage Storage { get; }

    /// <summary>Where the blobs go: the Azurite this run started, or the one that answered.</summary>
    public string StorageEndpoint => Storage.Endpoint;

    public bool StartedAzurite => _azurite is not null;

    /// <param name="connectionString">Azurite's (or any store's) connection string; when it names a local Azurite that does not answer, one is started.</param>
    /// <param name="console">Where the apps' log lines go, above any live display on it.</param>
    /// <exception cref="LoadToolException">Azurite must be started, but Node.js or Azurite is not installed.</exception>
    public static async Task<InProcessBurst> StartAsync(
        MessagingModel model, string connectionString, IAnsiConsole console, CancellationToken cancellationToken)
    {
        Azurite? azurite = null;
        DirectoryInfo? data = null;
        if (!await AnswersAsync(connectionString, cancellationToken))
        {
            if (Azurite.MissingPrerequisite() is { } missing)
            {
                throw new LoadToolException(missing, "Or pass --storage with the connection string of a store that runs.", ExitCodes.Unreachable);
            }

            data = Directory.CreateTempSubdirectory("order-load-azurite");
            azurite = await Azurite.StartAsync(data.FullName);
            connectionString = azurite.ConnectionString;
        }

        try
        {
            var trio = await EmulatedTrio.StartAsync(new EmulatedTrioOptions
            {
                StorageConnectionString = connectionString,
                Model = model,
                // As under dapr run, the apps print what they log at Warning and above; a faultless burst prints nothing.
                Settings = new Dictionary<string, string?> { ["Logging:LogLevel:Default"] = "Warning" },
                ConfigureLogging = (member, logging) => AppLogLines.Use(console, member, logging),
            }, cancellationToken);
            var storage = OutboxStorage.Open(new StorageOptions { ConnectionString = connectionString }, OrderTopology.Outboxes);
            var burst = new InProcessBurst(azurite, data, trio, storage);
            await trio.WaitUntilReadyAsync(TimeSpan.FromSeconds(30), cancellationToken);
            return burst;
        }
        catch
        {
            await StopAzuriteAsync(azurite, data);
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
        await StopAzuriteAsync(_azurite, _azuriteData);
    }

    private static async Task StopAzuriteAsync(Azurite? azurite, DirectoryInfo? data)
    {
        if (azurite is not null)
        {
            await azurite.DisposeAsync();
        }

        data?.Delete(recursive: true);
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
