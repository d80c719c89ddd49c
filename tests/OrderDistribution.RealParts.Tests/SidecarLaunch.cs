namespace OrderDistribution.RealParts.Tests;

/// <summary>One app's sidecar as its run file describes it, with the component folders rendered for the started parts.</summary>
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
    string? ApiToken);
