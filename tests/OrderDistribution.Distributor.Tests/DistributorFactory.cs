using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using OrderDistribution.Dapr;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// The distributor in-process. By default the sidecar is replaced by a <see cref="RecordingDaprPublisher"/>;
/// with <see cref="RealSidecarClient"/> the app talks HTTP to whatever DAPR_HTTP_ENDPOINT names.
/// </summary>
public sealed class DistributorFactory(params (string Key, string? Value)[] settings) : WebApplicationFactory<Program>
{
    public RecordingDaprPublisher Sidecar { get; } = new();

    public LogRecorder Logs { get; } = new();

    public bool RealSidecarClient { get; init; }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseSetting("Readiness:Interval", "00:00:00.100");
        foreach (var (key, value) in settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureLogging(logging => logging.AddProvider(Logs));
        if (!RealSidecarClient)
        {
            builder.ConfigureServices(services => services.Replace(ServiceDescriptor.Singleton<IDaprPublisher>(Sidecar)));
        }
    }
}
