using System.Net;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// With an app API token, a caller without it reaches only the health checks, and every call to the sidecar carries
/// the sidecar's own token.
/// </summary>
public sealed class AppApiTokenTests : RecordingSidecarTests
{
    [Fact]
    public async Task With_an_app_API_token_only_health_is_open_without_it_and_every_publish_carries_the_sidecars()
    {
        await using var app = await ForwardingAsync(("APP_API_TOKEN", "app-secret"),
            ("DAPR_API_TOKEN", "sidecar-secret"));
        var client = await ReadyClientAsync(app);
        var delivery = BulkRequest.RawPayload(TestOrders.Many(2), "q-order-ingress").Body;

        var without = await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(delivery));
        var wrong = await SendAsync(client, "/q-order-ingress-bulk", delivery, "app-secreT");
        var with = await SendAsync(client, "/q-order-ingress-bulk", delivery, "app-secret");
        var subscribe = await client.GetAsync("/dapr/subscribe");

        Assert.Equal(HttpStatusCode.Unauthorized, without.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, subscribe.StatusCode);
        Assert.Equal(HttpStatusCode.OK, with.StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/alive")).StatusCode);
        var publishes = Sidecar.Requests.Where(r =>
            r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(publishes);
        Assert.All(publishes, p => Assert.Equal("sidecar-secret", p.Headers["dapr-api-token"]));
    }

    private static async Task<HttpResponseMessage> SendAsync(HttpClient client, string path, string body, string token)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = BulkRequest.Json(body) };
        request.Headers.Add("dapr-api-token", token);
        return await client.SendAsync(request);
    }
}
