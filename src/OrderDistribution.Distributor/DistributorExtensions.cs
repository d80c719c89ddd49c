using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Distributor;

public static class DistributorExtensions
{
    public static IHostApplicationBuilder AddDistributor(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSettings<DistributorOptions>(DistributorOptions.Section);
        builder.Services.AddOrderEntryPoints();
        builder.Services.AddSidecarOutbound();
        builder.Services.AddSingleton<OrderRouter>();
        builder.Services.AddSingleton(provider =>
            OrderForwarders.Over(provider.GetRequiredService<ISidecarOutbound>(), provider));
        builder.Services.AddSingleton<IOrderHandler, OrderDistributor>();
        builder.Services.AddHostedService<DistributorWarmUp>();
        return builder;
    }

    /// <summary>The subscription to the ingress queue and its three entry points.</summary>
    public static IEndpointRouteBuilder MapDistributorEndpoints(this IEndpointRouteBuilder app)
    {
        var options = app.ServiceProvider.GetRequiredService<IOptions<DistributorOptions>>().Value;
        return app.MapOrderEntryPoints(new OrderRoutes(options.IngressQueue, options.IngressInputBinding));
    }
}
