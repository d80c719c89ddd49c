using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.Messaging;
using OrderDistribution.SidecarEmulator.Storage;

namespace OrderDistribution.SidecarEmulator.Hosting;

public sealed record EmulatedTrioOptions
{
    /// <summary>The receivers' store (Storage:ConnectionString), e.g. <see cref="Azurite.ConnectionString"/>.</summary>
    public required string StorageConnectionString { get; init; }

    /// <summary>The model: pub/sub bulk, pub/sub single or bindings.</summary>
    public MessagingModel Model { get; init; } = MessagingModel.PubSubBulk;

    public EmulatedSidecarOptions Sidecar { get; init; } = new();

    /// <summary>Further settings for every app, over its appsettings.json (e.g.
    /// <c>Logging:LogLevel:Default</c>).</summary>
    public IReadOnlyDictionary<string, string?> Settings { get; init; } = new Dictionary<string, string?>();

    /// <summary>
    /// Where each app (<c>distributor</c>, <c>express</c>, <c>standard</c>) logs; by default to the console, as under
    /// <c>dapr run</c>.
    /// </summary>
    public Action<string, ILoggingBuilder>? ConfigureLogging { get; init; }

    /// <summary>Changes an app's services (by member) before it starts: a benchmark's failing store.</summary>
    public Action<string, IServiceCollection>? ConfigureServices { get; init; }

    /// <summary>
    /// How each app of this trio starts beside the emulator at <paramref name="sidecar"/>: the same for one in this
    /// process and one in a process of its own.
    /// </summary>
    public AppHostOptions AppOptions(Uri sidecar)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Messaging:Model"] = Model.Text(),
            ["Storage:ConnectionString"] = StorageConnectionString,
        };
        foreach (var (key, value) in Settings)
        {
            settings[key] = value;
        }

        return new AppHostOptions
        {
            Sidecar = sidecar,
            Settings = settings,
            ConfigureLogging = ConfigureLogging,
            ConfigureServices = ConfigureServices,
        };
    }
}
