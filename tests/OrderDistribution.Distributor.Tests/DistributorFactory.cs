using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// The distributor in-process. By default its DaprClient is a <see cref="RecordingEmulatorClient"/>; with
/// <see cref="OverEmulator"/>, one over the sidecar emulator that DAPR_HTTP_ENDPOINT names (<see
/// cref="EmulatorDaprClient"/>).
/// </summary>
public sealed class DistributorFactory(
    params (string Key, string? Value)[] settings) : WebApplicationFactory<OrderRouter>
{
    public RecordingEmulatorClient Sidecar { get; } = new();

    public LogRecorder Logs { get; } = new();

    public bool OverEmulator { get; init; }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseSetting("Readiness:Interval", "00:00:00.100");
        foreach (var (key, value) in settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureLogging(logging => logging.AddProvider(Logs));
        builder.ConfigureServices(services =>
        {
            if (OverEmulator)
            {
                services.UseSidecarEmulator();
            }
            else
            {
                services.Replace(ServiceDescriptor.Singleton(Sidecar.Client));
                services.Replace(ServiceDescriptor.Singleton(Sidecar.Bindings));
            }
        });
    }
}
