using Dapr.Client;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// The sidecar is ready when its outbound side (components, publishing) is: <c>GET /v1.0/healthz/outbound</c>.
/// </summary>
public sealed class SidecarProbe(DaprClient dapr, SidecarOptions sidecar) : IReadinessProbe
{
    public string Name => $"Dapr sidecar at {sidecar.HttpEndpoint}";

    public async Task CheckAsync(CancellationToken cancellationToken)
    {
        if (!await dapr.CheckOutboundHealthAsync(cancellationToken))
        {
            throw new HttpRequestException("healthz/outbound did not answer 2xx");
        }
    }
}
