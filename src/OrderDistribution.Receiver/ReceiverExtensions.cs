using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;

namespace OrderDistribution.Receiver;

public static class ReceiverExtensions
{
    public static IHostApplicationBuilder AddReceiver(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSettings<ReceiverOptions>(ReceiverOptions.Section)
            .Configure<IConfiguration>((options, configuration) =>
                options.Instance = configuration["INSTANCE"] ?? options.Instance);
        builder.Services.AddOrderStorage(provider =>
            provider.GetRequiredService<IOptions<ReceiverOptions>>().Value.MaxConcurrentWrites);
        builder.Services.AddOrderEntryPoints();
        // Only for the dead-letter queue: what a receiver refuses for good is kept there through its sidecar.
        builder.Services.AddSidecarOutbound(sidecarReadiness: false);
        builder.Services.AddSingleton<OrderUploads>();
        builder.Services.AddSingleton<BlobOrderStore>();
        builder.Services.AddSingleton<IOrderStore>(provider => provider.GetRequiredService<BlobOrderStore>());
        builder.Services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<BlobOrderStore>());
        builder.Services.AddSingleton<StoredOrdersTelemetry>();
        builder.Services.AddHostedService(provider => provider.GetRequiredService<StoredOrdersTelemetry>());
        builder.Services.AddSingleton<IOrderHandler, OrderWriter>();
        builder.Services.AddHostedService<ReceiverWarmUp>();
        return builder;
    }

    /// <summary>The subscription to the instance's queue and its three entry points.</summary>
    public static IEndpointRouteBuilder MapReceiverEndpoints(this IEndpointRouteBuilder app)
    {
        var options = app.ServiceProvider.GetRequiredService<IOptions<ReceiverOptions>>().Value;
        return app.MapOrderEntryPoints(new OrderRoutes(options.QueueName, options.InputBindingName));
    }
}
