using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using OrderDistribution.Distributor;
using OrderDistribution.Receiver;

namespace OrderDistribution.Benchmarks;

/// <summary>The distributor and a receiver hosted in-process with their own settings files, logging warnings only.</summary>
public static class InProcessApps
{
    public static WebApplicationFactory<OrderRouter> Distributor(Action<IWebHostBuilder> configure) =>
        new WebApplicationFactory<OrderRouter>().WithWebHostBuilder(builder =>
        {
            builder.UseSolutionRelativeContentRoot("src/OrderDistribution.Distributor", "OrderDistribution.slnx");
            builder.UseSetting("Logging:LogLevel:Default", "Warning");
            configure(builder);
        });

    public static WebApplicationFactory<BlobOrderStore> Receiver(string instance, string connectionString, Action<IWebHostBuilder>? configure = null) =>
        new WebApplicationFactory<BlobOrderStore>().WithWebHostBuilder(builder =>
        {
            builder.UseSolutionRelativeContentRoot("src/OrderDistribution.Receiver", "OrderDistribution.slnx");
            builder.UseSetting("Logging:LogLevel:Default", "Warning");
            builder.UseSetting("INSTANCE", instance);
            builder.UseSetting("Storage:ConnectionString", connectionString);
            configure?.Invoke(builder);
        });
}
