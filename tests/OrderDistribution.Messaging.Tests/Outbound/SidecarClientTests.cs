using Dapr.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The SDK's client as the apps build it (<see cref="SidecarExtensions.AddSidecarOutbound"/>), not the emulator's:
/// it calls the sidecar at the address the settings give, with the sidecar's API token when one is set and with none
/// otherwise.
/// </summary>
public sealed class SidecarClientTests
{
    [Theory]
    [InlineData("sidecar-secret")]
    [InlineData(null)]
    public async Task The_apps_SDK_client_calls_the_sidecar_at_its_address_with_its_API_token_if_any(string? token)
    {
        var tokens = new List<string?>();
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        await using var sidecar = builder.Build();
        sidecar.MapGet("/v1.0/healthz/outbound", (HttpRequest request) =>
        {
            tokens.Add(request.Headers["dapr-api-token"].FirstOrDefault());
            return Results.NoContent();
        });
        await sidecar.StartAsync();
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(
        [
            new("DAPR_HTTP_ENDPOINT", sidecar.Urls.First()), new("DAPR_API_TOKEN", token),
        ]).Build();
        await using var provider = new ServiceCollection().AddLogging().AddSingleton<IConfiguration>(configuration)
            .AddSidecarOutbound().BuildServiceProvider();

        Assert.True(await provider.GetRequiredService<DaprClient>().CheckOutboundHealthAsync());

        Assert.Equal([token], tokens);
    }
}
