using Microsoft.Extensions.Options;
using OrderDistribution.Dapr;
using OrderDistribution.Storage;

namespace OrderDistribution.Receiver;

public static class ReceiverExtensions
{
    public static IHostApplicationBuilder AddReceiver(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<ReceiverOptions>()
            .Bind(builder.Configuration.GetSection(ReceiverOptions.Section))
            .Configure(options => options.Instance = builder.Configuration["INSTANCE"] ?? options.Instance)
            .ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<ReceiverOptions>, ReceiverOptionsValidator>();
        builder.Services.AddOptions<StorageOptions>()
            .Bind(builder.Configuration.GetSection(StorageOptions.Section))
            .ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<StorageOptions>, StorageOptionsValidator>();

        builder.Services.AddDaprMessaging(builder.Configuration);
        builder.Services.AddSingleton<IOrderStore, BlobOrderStore>();
        builder.Services.AddTransient<IOrderHandler, OutboxWriter>();
        return builder;
    }

    /// <summary>The subscription to the instance's queue and its three entry points.</summary>
    public static IEndpointRouteBuilder MapReceiverEndpoints(this IEndpointRouteBuilder app)
    {
        var options = app.ServiceProvider.GetRequiredService<IOptions<ReceiverOptions>>().Value;
        return app.MapOrderEntryPoints(new OrderRoutes(options.TopicName, options.InputBindingName));
    }
}
