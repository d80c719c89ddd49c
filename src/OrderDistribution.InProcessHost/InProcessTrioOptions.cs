using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.LocalRun;
using OrderDistribution.Messaging;

namespace OrderDistribution.InProcessHost;

public sealed record InProcessTrioOptions
{
    /// <summary>The receivers' store (Storage:ConnectionString), e.g. <see cref="Azurite.ConnectionString"/>.</summary>
    public required string StorageConnectionString { get; init; }

    /// <summary>The model: pub/sub bulk, pub/sub single or bindings.</summary>
    public MessagingModel Model { get; init; } = MessagingModel.PubSubBulk;

    public SidecarDoubleOptions Sidecar { get; init; } = new();

    /// <summary>Further settings for every app, over its appsettings.json (e.g. <c>Logging:LogLevel:Default</c>).</summary>
    public IReadOnlyDictionary<string, string?> Settings { get; init; } = new Dictionary<string, string?>();

    /// <summary>Where each app (<c>distributor</c>, <c>express</c>, <c>standard</c>) logs; by default to the console, as under <c>dapr run</c>.</summary>
    public Action<string, ILoggingBuilder>? ConfigureLogging { get; init; }

    /// <summary>Changes a receiver's services (by its instance) before it starts: a benchmark's failing store.</summary>
    public Action<string, IServiceCollection>? ConfigureReceiver { get; init; }
}
