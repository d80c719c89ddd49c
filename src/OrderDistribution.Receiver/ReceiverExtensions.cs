using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;
using Polly;

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
        builder.Services.AddResiliencePipeline(StorageResilience.Key, (pipeline, context) =>
        {
            var provider = context.ServiceProvider;
            pipeline.AddStorageStrategies(new DependencyLimits(
                provider.GetRequiredService<IOptions<StorageOptions>>().Value.RequestTimeout,
                provider.GetRequiredService<IOptions<ReceiverOptions>>().Value.MaxConcurrentWrites),
                provider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(StorageResilience)),
                provider.GetRequiredService<WarningPace>());
        });
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddSingleton<BlobOrderStore>();
        builder.Services.AddSingleton<IOrderStore>(provider => provider.GetRequiredService<BlobOrderStore>());
        builder.Services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<BlobOrderStore>());
        builder.Services.AddSingleton<StoredOrdersTelemetry>();
        builder.Services.AddTransient<IOrderHandler, OutboxWriter>();
        builder.Services.AddHostedService<ReceiverWarmUp>();
        return builder;
    }

    /// <summary>The subscription to the instance's queue and its three entry points.</summary>
    public static IEndpointRouteBuilder MapReceiverEndpoints(this IEndpointRouteBuilder app)
    {
        var options = app.ServiceProvider.GetRequiredService<IOptions<ReceiverOptions>>().Value;
        return app.MapOrderEntryPoints(new OrderRoutes(options.TopicName, options.InputBindingName));
    }
}
