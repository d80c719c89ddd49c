namespace OrderDistribution.Dapr;

/// <summary>Where the sidecar's HTTP API is. Read from the variables that <c>dapr run</c> and Container Apps set.</summary>
public sealed class DaprSidecarOptions
{
    public Uri HttpEndpoint { get; set; } = new("http://127.0.0.1:3500");

    public string? ApiToken { get; set; }

    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(30);

    public static DaprSidecarOptions FromEnvironment(Func<string, string?> variable)
    {
        var options = new DaprSidecarOptions { ApiToken = variable("DAPR_API_TOKEN") };
        if (variable("DAPR_HTTP_ENDPOINT") is { Length: > 0 } endpoint)
        {
            options.HttpEndpoint = new Uri(endpoint);
        }
        else if (variable("DAPR_HTTP_PORT") is { Length: > 0 } port)
        {
            options.HttpEndpoint = int.TryParse(port, out var number) && number is > 0 and < 65536
                ? new Uri($"http://127.0.0.1:{number}")
                : throw new InvalidOperationException($"DAPR_HTTP_PORT must be a port number, not '{port}'.");
        }

        return options;
    }
}
