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
/// (<see cref="EmulatedTrio"/>), storing into the store given, or with none given into the local Azurite, which it
/// starts on a free port (data in a temporary folder, both gone at the end) when none answers. The store is opened
/// first (<see cref="OpenAsync"/>), so that a store that refuses is named before the trio starts
/// (<see cref="StartTrioAsync"/>). The burst goes on the ingress queue at once, as <c>run</c> schedules it, and is
/// watched in the outboxes as <c>run</c> watches it.
/// </summary>
public sealed class InProcessBurst : IAsyncDisposable
{
    private const string LocalAzurite = "UseDevelopmentStorage=true";

    private readonly Azurite? _azurite;
    private readonly DirectoryInfo? _azuriteData;
    private readonly string _connectionString;
    private EmulatedTrio? _trio;

    private InProcessBurst(Azurite? azurite, DirectoryInfo? azuriteData, string connectionString)
    {
        _azurite = azurite;
        _azuriteData = azuriteData;
        _connectionString = connectionString;
        Storage = OutboxStorage.Open(new StorageOptions { ConnectionString = connectionString }, OrderTopology.Outboxes);
    }

    public OutboxStorage Storage { get; }

    /// <summary>Where the blobs go: the Azurite this run started, or the one that answered.</summary>
    public string StorageEndpoint => Storage.Endpoint;

    public bool StartedAzurite => _azurite is not null;

    /// <summary>
    /// The store to measure: the one given, as it is (the caller checks that it answers); none given, the local
    /// Azurite, started here when none answers.
    /// </summary>
    /// <param name="connectionString">The store the user gave (--storage or Storage__ConnectionString), or null.</param>
    /// <exception cref="LoadToolException">Azurite must be started, but Node.js or Azurite is not installed.</exception>
    public static async Task<InProcessBurst> OpenAsync(string? connectionString, CancellationToken cancellationToken)
    {
        if (connectionString is not null || await AnswersAsync(LocalAzurite, cancellationToken))
        {
            return new InProcessBurst(null, null, connectionString ?? LocalAzurite);
        }

        if (Azurite.MissingPrerequisite() is { } missing)
        {
            throw new LoadToolException(missing, "Or pass --storage with the connection string of a store that runs.", ExitCodes.Unreachable);
        }

        var data = Directory.CreateTempSubdirectory("order-load-azurite");
        try
        {
            var azurite = await Azurite.StartAsync(data.FullName);
            return new InProcessBurst(azurite, data, azurite.ConnectionString);
        }
        catch
        {
            data.Delete(recursive: true);
            throw;
        }
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
        var scheduledAt = DateTimeOffset.UtcNow;
        var trio = _trio ?? throw new InvalidOperationException("The trio has not started.");
        trio.Schedule(set.Orders.Select(OrderJson.Serialize).Concat(set.Poison.Select(p => System.Text.Encoding.UTF8.GetBytes(p.Payload))));
        return scheduledAt;
    }

    public async ValueTask DisposeAsync()
    {
        if (_trio is not null)
        {
            await _trio.DisposeAsync();
        }

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
