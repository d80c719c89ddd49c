using System.Globalization;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// daprd's command line for one app, as <c>dapr run -f</c> builds it from a run file's app entry: the same flags
/// whether daprd runs as a local process or in a container; only the addresses and paths differ.
/// </summary>
internal static class DaprdArguments
{
    /// <param name="appChannelAddress">Where daprd reaches its app: 127.0.0.1, or the test's host from a
    /// container.</param>
    /// <param name="listenAddress">Where daprd's own APIs listen.</param>
    /// <param name="resourcesPaths">The component folders as daprd sees them.</param>
    /// <param name="configPath">The configuration file as daprd sees it.</param>
    public static IReadOnlyList<string> For(
        SidecarLaunch launch, string appChannelAddress, string listenAddress, SidecarPorts ports,
        IEnumerable<string> resourcesPaths, string configPath)
    {
        var arguments = new List<string>
        {
            "--app-id", launch.AppId,
            "--app-port", Text(launch.AppPort),
            "--app-protocol", launch.AppProtocol,
            "--app-channel-address", appChannelAddress,
            "--dapr-listen-addresses", listenAddress,
            "--dapr-http-port", Text(ports.Http),
            "--dapr-grpc-port", Text(ports.Grpc),
            "--dapr-internal-grpc-port", Text(ports.InternalGrpc),
            "--metrics-port", Text(ports.Metrics),
            "--config", configPath,
            "--log-level", "info",
        };
        foreach (var path in resourcesPaths)
        {
            arguments.Add("--resources-path");
            arguments.Add(path);
        }

        if (launch.AppMaxConcurrency is { } concurrency)
        {
            arguments.Add("--app-max-concurrency");
            arguments.Add(Text(concurrency));
        }

        return arguments;
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
