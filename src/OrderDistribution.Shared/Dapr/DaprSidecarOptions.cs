using Microsoft.Extensions.Configuration;
using OrderDistribution.Hosting;

namespace OrderDistribution.Dapr;

/// <summary>
/// Where the sidecar's HTTP API is, read from the variables that <c>dapr run</c> and Container Apps set, and how
/// the app calls it (section <c>Dapr</c>: <c>RequestTimeout</c>, <c>MaxConcurrentRequests</c>).
/// </summary>
public sealed class DaprSidecarOptions
{
    public Uri HttpEndpoint { get; set; } = new("http://127.0.0.1:3500");

    public string? ApiToken { get; set; }

    /// <summary>The longest one call to the sidecar may take before it is abandoned and tried again.</summary>
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Calls to the sidecar in flight at once, per process, over all deliveries.</summary>
    public int MaxConcurrentRequests { get; set; } = 64;

    public DependencyLimits Limits => new(RequestTimeout, MaxConcurrentRequests);

    /// <exception cref="InvalidOperationException">A setting is not what it must be; the message names it.</exception>
    public static DaprSidecarOptions FromConfiguration(IConfiguration configuration)
    {
        var options = FromEnvironment(name => configuration[name]);
        configuration.GetSection("Dapr").Bind(options);
        if (options.RequestTimeout <= TimeSpan.Zero || options.MaxConcurrentRequests is < 1 or > 10_000)
        {
            throw new InvalidOperationException(
                "Dapr:RequestTimeout must be positive and Dapr:MaxConcurrentRequests between 1 and 10000, " +
                $"not {options.RequestTimeout} and {options.MaxConcurrentRequests}.");
        }

        return options;
    }

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
