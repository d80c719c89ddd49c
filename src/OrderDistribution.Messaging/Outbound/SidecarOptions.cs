using System.ComponentModel.DataAnnotations;
using Dapr;
using Grpc.Net.Client;
using Microsoft.Extensions.Configuration;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// How the app calls its sidecar (section <c>Dapr</c>: <c>RequestTimeout</c>, <c>MaxConcurrentRequests</c>,
/// <c>MaxRequestBodySizeMb</c>) and where the
/// sidecar is: the SDK's own reading of the variables <c>dapr run</c> and Container Apps set (<c>DAPR_GRPC_ENDPOINT</c>
/// or <c>DAPR_GRPC_PORT</c>, <c>DAPR_HTTP_ENDPOINT</c> or <c>DAPR_HTTP_PORT</c>, <c>DAPR_API_TOKEN</c>), checked at
/// start (<see cref="SidecarExtensions.AddSidecarOutbound"/>).
/// </summary>
public sealed class SidecarOptions
{
    public const string Section = "Dapr";

    /// <summary>
    /// How long a call waits for the sidecar before its orders are answered RETRY. The call runs on after that, in its
    /// place in the process's limit, until the sidecar answers or six times this passed
    /// (<c>DependencyLimits.AbandonAfter</c>).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.0000001", "10675199.02:48:05.4775807",
        ErrorMessage = "Dapr:RequestTimeout must be positive.")]
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Calls to the sidecar in flight at once, per process, over all requests.</summary>
    [Range(1, 10_000, ErrorMessage = "Dapr:MaxConcurrentRequests must be between {1} and {2}.")]
    public int MaxConcurrentRequests { get; set; } = 64;

    /// <summary>
    /// The largest request the sidecar takes, in MiB: daprd's <c>--max-body-size</c> (runtime 1.14 and later; before,
    /// and still accepted, <c>--dapr-http-max-request-size</c>; annotation <c>dapr.io/http-max-request-size</c>), 4 by
    /// default. It bounds its HTTP API and, as the gRPC server's largest message, its gRPC API alike. An order that
    /// cannot fit is dropped before any call (<see cref="OrderSizeLimit"/>). Set it to what the sidecar runs with.
    /// </summary>
    [Range(1, 1_024,
        ErrorMessage = "Dapr:MaxRequestBodySizeMb (daprd's --max-body-size, in MiB) must be between {1} and {2}.")]
    public int MaxRequestBodySizeMb { get; set; } = 4;

    public long MaxRequestBodyBytes => MaxRequestBodySizeMb * 1024L * 1024L;

    public Uri GrpcEndpoint { get; private set; } = new("http://127.0.0.1:50001");

    public Uri HttpEndpoint { get; private set; } = new("http://127.0.0.1:3500");

    public string? ApiToken { get; private set; }

    public DependencyLimits Limits => new(RequestTimeout, MaxConcurrentRequests);

    /// <summary>
    /// A cancelled call (an attempt's timeout, the request's deadline) ends as cancellation, not as the SDK's
    /// DaprException around gRPC's "Cancelled", so that the resilience pipeline and the request tell it from a failure.
    /// </summary>
    public static GrpcChannelOptions ChannelOptions() => new() { ThrowOperationCanceledOnCancellation = true };

    /// <summary>
    /// Where the sidecar is, as the SDK reads it from the variables <c>dapr run</c> and Container Apps set.
    /// </summary>
    /// <exception cref="InvalidOperationException">A variable is no address; the message names it.</exception>
    internal void ReadAddress(IConfiguration configuration)
    {
        GrpcEndpoint =
            Endpoint(() =>
                DaprDefaults.GetDefaultGrpcEndpoint(configuration), "DAPR_GRPC_ENDPOINT", "DAPR_GRPC_PORT",
                    configuration);
        HttpEndpoint =
            Endpoint(() =>
                DaprDefaults.GetDefaultHttpEndpoint(configuration), "DAPR_HTTP_ENDPOINT", "DAPR_HTTP_PORT",
                    configuration);
        ApiToken = DaprDefaults.GetDefaultDaprApiToken(configuration) is { Length: > 0 } token ? token : null;
    }

    /// <param name="read">The SDK's reading of the two variables, which throws on a port or address it cannot
    /// parse.</param>
    private static Uri Endpoint(Func<string> read, string endpointVariable, string portVariable,
        IConfiguration configuration)
    {
        string value;
        try
        {
            value = read();
        }
        catch (Exception e) when (e is FormatException or OverflowException or UriFormatException or ArgumentException)
        {
            throw new InvalidOperationException(
                $"{endpointVariable} must be an absolute http(s) URL and {portVariable} a port number, not " +
                $"'{configuration[endpointVariable]}' and '{configuration[portVariable]}': {e.Message}", e);
        }

        return Uri.TryCreate(value, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" && uri.Port > 0
            ? uri
            : throw new InvalidOperationException(
                $"{endpointVariable} (or {portVariable}) must give an absolute http(s) URL such as " +
                    $"http://127.0.0.1:50001, not '{value}'.");
    }
}
