using OrderDistribution.Contracts;
using System.CommandLine;
using Dapr.Client;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Storage;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>schedule</c>: the orders file, poison included, onto the ingress queue through a sidecar.</summary>
internal static class ScheduleCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap, Action<IServiceCollection>? configurePublishing) =>
        wrap(new Command("schedule", "Put the orders on the ingress queue.") { Target, ScheduleDelay, Model, Sidecar, SidecarGrpc, MaxBulkBytes },
            (result, ct) => RunAsync(console, result, configurePublishing, ct));

    public static async Task<int> RunAsync(
        IAnsiConsole console, ParseResult result, Action<IServiceCollection>? configurePublishing, CancellationToken ct)
    {
        var set = await OrderFile.ReadSetAsync(result.GetValue(OrdersFile)!, ct);
        var model = result.GetValue(Model);
        var target = result.GetValue(Target);
        await using var publishing = Publishing(result, configurePublishing);
        // Azure: the burst's instant in storage's time (Azure's), so that the cycle time has one clock.
        var skew = target == ScheduleTarget.Azure ? await MeasureStorageClockAsync(console, result, ct) : default;
        DateTimeOffset? enqueueAt = target == ScheduleTarget.Azure
            ? DateTimeOffset.FromUnixTimeSeconds(skew.ToServiceTime(DateTimeOffset.UtcNow).ToUnixTimeSeconds() + ScheduleDelaySeconds(result))
            : null;

        using var http = CommandSupport.SidecarClient(result);
        await CommandSupport.CheckSidecarAsync(console, http, model, target, ct);
        var scheduler = new SidecarScheduler(
            publishing.GetRequiredService<BulkOrderPublisher>(), publishing.GetRequiredService<DaprClient>(),
            OrderTopology.IngressQueue, OrderTopology.IngressOutputBinding);

        // Azure: the orders go on the Service Bus ingress queue whatever model the apps run, all visible
        // at one whole second (the broker's time resolution).
        var scheduledAt = enqueueAt ?? DateTimeOffset.UtcNow;
        var failed = await CommandSupport.WithProgressAsync(console, $"Scheduling {set.Count} orders ({target}, {model})", set.Count,
            (progress, _) => scheduler.ScheduleAsync(set, enqueueAt is null ? model : ComponentsModel.Pubsub, enqueueAt, progress, ct));
        await ScheduleRecord.WriteAsync(result.GetValue(State)!,
            new ScheduleRecord(scheduledAt, model.ToString().ToLowerInvariant(), set.Count, result.GetValue(OrdersFile)!)
            {
                ClockSkewSeconds = target == ScheduleTarget.Azure ? skew.Offset.TotalSeconds : null,
            }, ct);

        if (failed.Count > 0)
        {
            console.MarkupLineInterpolated($"[red]{failed.Count} orders were not scheduled, first {failed[0]}.[/]");
            return ExitCodes.Incomplete;
        }

        if (enqueueAt < skew.ToServiceTime(DateTimeOffset.UtcNow))
        {
            console.MarkupLineInterpolated($"[yellow]Scheduling took longer than --schedule-delay: some orders were visible late, and the cycle time includes that.[/]");
        }

        var poison = set.Poison.Count > 0 ? $" ({set.Poison.Count} of them poison, to be dropped)" : "";
        console.MarkupLineInterpolated($"Scheduled {set.Count} orders{poison} for {scheduledAt:O}.");
        return ExitCodes.Done;
    }

    private static async Task<ClockSkew> MeasureStorageClockAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var storage = BlobClientFactory.Create(CommandSupport.StorageOptionsOf(result), OutboxStorage.CallTimeout);
        var clock = ServiceClock.OfContainer(storage.GetBlobContainerClient(WatchExpectation.OutboxFor(Delivery.Express)));
        var skew = await clock.MeasureAsync(ct);
        console.MarkupLineInterpolated($"{skew.Describe("storage")}");
        return skew;
    }

    private static int ScheduleDelaySeconds(ParseResult result) =>
        result.GetValue(ScheduleDelay) is >= 1 and <= 3_600 and var seconds
            ? seconds
            : throw new ArgumentException($"--schedule-delay must be between 1 and 3600 seconds, not {result.GetValue(ScheduleDelay)}.");

    /// <summary>The distributor's own publishing, at the sidecar the options name.</summary>
    /// <exception cref="ArgumentException">An option is out of range; the message names it.</exception>
    private static ServiceProvider Publishing(ParseResult result, Action<IServiceCollection>? configure)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["DAPR_HTTP_ENDPOINT"] = CommandSupport.AbsoluteUri(Sidecar, result.GetValue(Sidecar)).ToString(),
            ["DAPR_GRPC_ENDPOINT"] = CommandSupport.AbsoluteUri(SidecarGrpc, result.GetValue(SidecarGrpc)).ToString(),
            [$"{MessagingOptions.Section}:{nameof(MessagingOptions.MaxBulkPublishBytes)}"] =
                result.GetValue(MaxBulkBytes).ToString(System.Globalization.CultureInfo.InvariantCulture),
        }).Build();
        var services = new ServiceCollection().AddLogging().AddDaprPublishing(configuration);
        configure?.Invoke(services);
        var provider = services.BuildServiceProvider();
        try
        {
            _ = provider.GetRequiredService<IOptions<MessagingOptions>>().Value;
            return provider;
        }
        catch (OptionsValidationException e)
        {
            provider.Dispose();
            throw new ArgumentException($"--max-bulk-bytes: {e.Message}", e);
        }
    }
}
