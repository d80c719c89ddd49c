using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using OrderDistribution.SidecarEmulator.Client;

namespace OrderDistribution.SidecarEmulator.Hosting;

/// <summary>
/// How <see cref="AppHost"/> starts one app: where its sidecar is, its settings, its logging and service changes.
/// </summary>
public sealed record AppHostOptions
{
    /// <summary>The sidecar's HTTP endpoint (the app's <c>DAPR_HTTP_ENDPOINT</c>).</summary>
    public required Uri Sidecar { get; init; }

    /// <summary>
    /// Whether <see cref="Sidecar"/> is the emulator: the app's DaprClient is then one over it
    /// (<see cref="EmulatorDaprClient"/>). False for a real daprd, which the app's own DaprClient reaches.
    /// </summary>
    public bool SidecarIsEmulator { get; init; } = true;

    /// <summary>
    /// Settings over the app's appsettings.json, as configuration keys (<c>Section:Key</c>), e.g. a run file's env.
    /// </summary>
    public IReadOnlyDictionary<string, string?> Settings { get; init; } = new Dictionary<string, string?>();

    /// <summary>
    /// Where each app (by member: <c>distributor</c>, <c>express</c>, <c>standard</c>) logs; by default to the console,
    /// as under <c>dapr run</c>.
    /// </summary>
    public Action<string, ILoggingBuilder>? ConfigureLogging { get; init; }

    /// <summary>
    /// Changes an app's services (by member) before it starts: a benchmark's failing store or in-memory server.
    /// </summary>
    public Action<string, IServiceCollection>? ConfigureServices { get; init; }

    /// <summary>Where the app listens: a free port on 127.0.0.1 by default.</summary>
    public string Url { get; init; } = "http://127.0.0.1:0";

    /// <summary>
    /// The app's content root (where its appsettings files are); by default its settings copied beside this library.
    /// </summary>
    public string? ContentRoot { get; init; }

    public string EnvironmentName { get; init; } = Environments.Production;
}
