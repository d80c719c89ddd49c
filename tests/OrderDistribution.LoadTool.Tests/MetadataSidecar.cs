using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>
/// A sidecar that answers <c>GET /v1.0/metadata</c> as daprd 1.14 does for the distributor of one model, and
/// records (and accepts) every other request.
/// </summary>
public sealed class MetadataSidecar : IAsyncDisposable
{
    private readonly WebApplication _app;

    private MetadataSidecar(WebApplication app) => _app = app;

    public ConcurrentQueue<string> OtherRequests { get; } = new();

    public Uri Address => new(_app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());

    /// <summary>The distributor's metadata in the pubsub model: a subscription to q-order-ingress on order-pubsub.</summary>
    public const string PubsubDistributor = """
        {"id":"distributor","runtimeVersion":"1.14.0","enabledFeatures":[],"actors":[],
         "components":[{"name":"order-pubsub","type":"pubsub.redis","version":"v1","capabilities":["SUBSCRIBE_WILDCARDS"]}],
         "extended":{"appCommand":"dotnet run"},
         "subscriptions":[{"pubsubname":"order-pubsub","topic":"q-order-ingress","rules":[{"path":"/q-order-ingress-bulk"}],"type":"PROGRAMMATIC"}],
         "httpEndpoints":[],"appConnectionProperties":{"port":5001,"protocol":"http","channelAddress":"127.0.0.1"}}
        """;

    /// <summary>The distributor's metadata in the bindings model: input binding q-order-ingress-input, no subscriptions.</summary>
    public const string BindingsDistributor = """
        {"id":"distributor","runtimeVersion":"1.14.0","enabledFeatures":[],"actors":[],
         "components":[{"name":"q-order-ingress-input","type":"bindings.rabbitmq","version":"v1","capabilities":["INPUT_BINDING","OUTPUT_BINDING"]},
                       {"name":"q-order-express-output","type":"bindings.rabbitmq","version":"v1","capabilities":["INPUT_BINDING","OUTPUT_BINDING"]}],
         "subscriptions":[],"httpEndpoints":[],"appConnectionProperties":{"port":5001,"protocol":"http"}}
        """;

    public static async Task<MetadataSidecar> StartAsync(string metadataJson)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var sidecar = new MetadataSidecar(app);
        app.MapGet("/v1.0/metadata", () => Results.Text(metadataJson, "application/json"));
        app.MapFallback((HttpRequest request) =>
        {
            sidecar.OtherRequests.Enqueue(request.Path.Value!);
            return Results.NoContent();
        });
        await app.StartAsync();
        return sidecar;
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();
}
