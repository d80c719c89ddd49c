using System.Net;
using Dapr.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.SidecarEmulator.Hosting;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The SDK's client as the apps build it (<see cref="SidecarExtensions.AddSidecarOutbound"/>), not the emulator's:
/// it calls the sidecar at the address the settings give, with the sidecar's API token when one is set and with none
/// otherwise, and a call cancelled by its caller ends as cancellation.
/// </summary>
public sealed class SidecarClientTests
{
    [Theory]
    [InlineData("sidecar-secret")]
    [InlineData(null)]
    public async Task The_apps_SDK_client_calls_the_sidecar_at_its_address_with_its_API_token_if_any(string? token)
    {
        var tokens = new List<string?>();
        var builder = WebApplication.CreateSlimBuilder(LoopbackServer.ReadSettingsOnce);
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        await using var sidecar = builder.Build();
        sidecar.MapGet("/v1.0/healthz/outbound", (HttpRequest request) =>
        {
            tokens.Add(request.Headers["dapr-api-token"].FirstOrDefault());
            return Results.NoContent();
        });
        await sidecar.StartAsync();
        await using var provider = Outbound(("DAPR_HTTP_ENDPOINT", sidecar.Urls.First()), ("DAPR_API_TOKEN", token));

        Assert.True(await provider.GetRequiredService<DaprClient>().CheckOutboundHealthAsync());

        Assert.Equal([token], tokens);
    }

    /// <summary>
    /// The resilience pipeline and the request's deadline tell a cancelled call from a failed one by its exception.
    /// </summary>
    [Fact]
    public async Task A_call_the_caller_cancels_ends_as_cancellation_not_as_the_sidecars_failure()
    {
        var builder = WebApplication.CreateSlimBuilder(LoopbackServer.ReadSettingsOnce);
        builder.WebHost.ConfigureKestrel(kestrel =>
            kestrel.Listen(IPAddress.Loopback, 0, listen => listen.Protocols = HttpProtocols.Http2));
        await using var sidecar = builder.Build();
        sidecar.MapPost("/dapr.proto.runtime.v1.Dapr/PublishEvent", (HttpContext context) =>
            Task.Delay(Timeout.Infinite, context.RequestAborted));
        await sidecar.StartAsync();
        await using var provider = Outbound(("DAPR_GRPC_ENDPOINT", LoopbackServer.AddressOf(sidecar).ToString()));
        using var cancelled = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => provider.GetRequiredService<DaprClient>()
            .PublishByteEventAsync("order-pubsub", "q-order-express", new byte[] { 1 },
                cancellationToken: cancelled.Token));
    }

    private static ServiceProvider Outbound(params (string Key, string? Value)[] settings) =>
        new ServiceCollection().AddLogging()
            .AddSingleton<IConfiguration>(new ConfigurationBuilder()
                .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, s.Value))).Build())
            .AddSidecarOutbound().BuildServiceProvider();
}
