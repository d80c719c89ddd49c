namespace OrderDistribution.TestSupport;

/// <summary>
/// What an app stops with at start because of its settings (<see cref="AppHost.StartFailureOf"/>), for configuration
/// tests.
/// </summary>
public static class AppStart
{
    /// <summary>No sidecar listens there; nothing is called before the app would start.</summary>
    private static readonly Uri NoSidecar = new("http://127.0.0.1:1");

    /// <param name="member"><see cref="AppHost.Distributor"/> or a receiver instance.</param>
    /// <param name="settings">Over the app's own; DAPR_HTTP_ENDPOINT and INSTANCE among them override the
    /// host's.</param>
    /// <returns>The exception the app stops with; null when it would start.</returns>
    public static Exception? FailureOf(string member, params (string Key, string? Value)[] settings) =>
        AppHost.StartFailureOf(member, new AppHostOptions
        {
            Sidecar = NoSidecar,
            Settings = settings.ToDictionary(s => s.Key, s => s.Value),
        });
}
