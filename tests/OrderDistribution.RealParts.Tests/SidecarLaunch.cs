using System.Globalization;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// One app's sidecar as its run file describes it, with the component folders rendered for the started parts.
/// </summary>
/// <param name="ResourcesFolders">Folders on the test's host, as <c>--resources-path</c>.</param>
/// <param name="ConfigFile">The Dapr configuration file on the test's host, as <c>--config</c>.</param>
/// <param name="AppMaxConcurrency">The run file's <c>appMaxConcurrency</c>, if it sets one.</param>
/// <param name="ApiToken">DAPR_API_TOKEN of the sidecar (and its app), if any.</param>
public sealed record SidecarLaunch(
    string AppId,
    int AppPort,
    string AppProtocol,
    IReadOnlyList<string> ResourcesFolders,
    string ConfigFile,
    int? AppMaxConcurrency,
    string? ApiToken)
{
    /// <summary>The sidecar of a run file's app, as <c>dapr run -f</c> starts it.</summary>
    /// <param name="rendered">Where the copy of a component folder for the started brokers is.</param>
    internal static SidecarLaunch Of(DaprRunFile.App app, int appPort, Func<string, string> rendered, string? apiToken)
    {
        var config = app.ConfigFilePath
            ?? throw new InvalidOperationException($"The run file gives {app.Id} no configFilePath.");
        return new SidecarLaunch(
            app.Id,
            appPort,
            app["appProtocol"] ?? "http",
            app.ResourcesPaths.Select(rendered).ToList(),
            // The run files keep the configuration beside the components.
            Path.Combine(rendered(Path.GetDirectoryName(config)!), Path.GetFileName(config)),
            app["appMaxConcurrency"] is { } max ? int.Parse(max, CultureInfo.InvariantCulture) : null,
            apiToken);
    }
}
