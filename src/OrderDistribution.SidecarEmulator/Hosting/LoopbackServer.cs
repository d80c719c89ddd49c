using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.SidecarEmulator.Hosting;

/// <summary>
/// A quiet HTTP server on 127.0.0.1 at a free port, for the stand-ins the apps and tools talk to over real HTTP.
/// </summary>
public static class LoopbackServer
{
    /// <summary>
    /// A host's arguments that have it read its settings files once, as the apps do: a run hosts dozens of these
    /// servers and apps at once.
    /// </summary>
    public static readonly string[] ReadSettingsOnce = [SettingsCheck.ReadSettingsOnce];

    public static WebApplication Create()
    {
        var builder = WebApplication.CreateSlimBuilder(ReadSettingsOnce);
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        return builder.Build();
    }

    /// <summary>Where a started server listens.</summary>
    public static Uri AddressOf(WebApplication app) =>
        new(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());
}
