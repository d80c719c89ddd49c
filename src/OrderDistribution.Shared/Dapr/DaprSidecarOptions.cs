using OrderDistribution.Hosting;

namespace OrderDistribution.Dapr;

/// <summary>Where the sidecar's HTTP API is. Read from the variables that <c>dapr run</c> and Container Apps set.</summary>
public sealed class DaprSidecarOptions
{
    public Uri HttpEndpoint { get; set; } = new("http://127.0.0.1:3500");

    public string? ApiToken { get; set; }

    /// <summary>The longest one call to the sidecar may take before it is abandoned and tried again.</summary>
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Calls to the sidecar in flight at once, per process, over all deliveries.</summary>
    public int MaxConcurrentRequests { get; set; } = 64;

    public DependencyLimits Limits => new(RequestTimeout, MaxConcurrentRequests);

    /// <exception cref="InvalidOperationException">A variable is set to something that is not an address; the message names it.</exception>
    public static DaprSidecarOptions FromEnvironment(Func<string, string?> variable)
    {
        var options = new DaprSidecarOptions { ApiToken = variable("DAPR_API_TOKEN") };
        if (variable("DAPR_HTTP_ENDPOINT") is { Length: > 0 } endpoint)
        {
            options.HttpEndpoint = Uri.TryCreate(endpoint, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
                ? uri
                : throw new InvalidOperationException(
                    $"DAPR_HTTP_ENDPOINT must be an absolute http(s) URL such as http://127.0.0.1:3500, not '{endpoint}'.");
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
