using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using OrderDistribution.Dapr;

namespace OrderDistribution.Distributor.Tests;

/// <summary>The distributor in-process, with the sidecar replaced by a <see cref="RecordingDaprPublisher"/>.</summary>
public sealed class DistributorFactory(params (string Key, string? Value)[] settings) : WebApplicationFactory<Program>
{
    public RecordingDaprPublisher Sidecar { get; } = new();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        foreach (var (key, value) in settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureServices(services => services.Replace(ServiceDescriptor.Singleton<IDaprPublisher>(Sidecar)));
    }
}
