using System.CommandLine;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Storage;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>schedule</c>: the orders file, poison included, onto the ingress queue through a sidecar.</summary>
internal static class ScheduleCommand
{
    public static Command Create(IAnsiConsole console, Action<IServiceCollection>? configurePublishing) =>
        new Command("schedule", "Put the orders on the ingress queue.")
        {
            Target, ScheduleDelay, Model, Sidecar, SidecarGrpc, MaxBulkBytes, LeaseSeconds,
        }.Writes(State).Runs((result, ct) => RunAsync(console, result, configurePublishing, ct));

    private static async Task<int> RunAsync(
        IAnsiConsole console, ParseResult result, Action<IServiceCollection>? configurePublishing, CancellationToken ct)
    {
        // The inputs first (a bad file is bad input, exit 2), then the store, held while the burst goes in.
        var index = await OrderFile.ReadIndexAsync(result.GetValue(OrdersFile)!, ct);
        await using var lease = await CommandSupport.HoldStoreAsync(await CommandSupport.OpenStorageAsync(result, ct), result, "schedule", index.Burst, ct);
        return await lease.HoldingAsync(async held => await ScheduleAsync(console, result, index, configurePublishing, held), ct)
            ? ExitCodes.Done
            : ExitCodes.Incomplete;
    }

    /// <summary>
    /// Schedules the orders file, checked whole as <paramref name="index"/>, as the options say, records when for
    /// 'watch', and prints the outcome. The orders are read from the file again as they are published, a chunk at a time.
    /// </summary>
    /// <returns>Whether every entry went in.</returns>
    public static async Task<bool> ScheduleAsync(
        IAnsiConsole console, ParseResult result, OrderIndex index, Action<IServiceCollection>? configurePublishing, CancellationToken ct)
    {
        var model = ModelOf(result);
        var target = result.GetValue(Target);
        await using var publishing = Publishing(result, configurePublishing);
        // Azure: the burst's instant in storage's time (Azure's), so that the cycle time has one clock.
        var skew = target == ScheduleTarget.Azure ? await MeasureStorageClockAsync(console, result, ct) : default;
        DateTimeOffset? enqueueAt = target == ScheduleTarget.Azure
            ? DateTimeOffset.FromUnixTimeSeconds(skew.ToServiceTime(DateTimeOffset.UtcNow).ToUnixTimeSeconds() + result.GetValue(ScheduleDelay))
            : null;

        using var http = CommandSupport.SidecarClient(result);
        await CommandSupport.CheckSidecarAsync(console, http, model, target, ct);
        var scheduler = new SidecarScheduler(
            publishing.GetRequiredService<BulkOrderPublisher>(), publishing.GetRequiredService<IOutputBindings>(),
            OrderTopology.IngressQueue, OrderTopology.IngressOutputBinding);

        // Azure: the orders go on the Service Bus ingress queue whatever model the apps run, all visible
        // at one whole second (the broker's time resolution).
        var scheduledAt = enqueueAt ?? DateTimeOffset.UtcNow;
        var outcome = await CommandSupport.WithProgressAsync(console, $"Scheduling {index.Count} orders ({target}, {model.Text()})", index.Count,
            (progress, _) => scheduler.ScheduleAsync(OrderFile.ReadOrdersAsync(result.GetValue(OrdersFile)!, ct), index.Poison, enqueueAt is null ? model : MessagingModel.PubSubBulk, enqueueAt, progress, ct));
        await ScheduleRecord.WriteAsync(result.GetValue(State)!,
            new ScheduleRecord(scheduledAt, model.Text(), index.Count, result.GetValue(OrdersFile)!)
            {
                ClockSkewSeconds = target == ScheduleTarget.Azure ? skew.Offset.TotalSeconds : null,
                Burst = index.Burst.Value,
            }, ct);

        if (outcome.Failed.Count > 0)
        {
            console.MarkupLineInterpolated(
                $"[red]{outcome.Failed.Count} of {outcome.Attempted} orders were not scheduled ({outcome.Scheduled} went in; first not scheduled: {outcome.Failed[0]}): {outcome.FirstFailure ?? "the sidecar gave no reason"}.[/]");
            return false;
        }

        if (enqueueAt < skew.ToServiceTime(DateTimeOffset.UtcNow))
        {
            console.MarkupLineInterpolated($"[yellow]Scheduling took longer than --schedule-delay: some orders were visible late, and the cycle time includes that.[/]");
        }

        var poison = index.Poison.Count > 0 ? $" ({index.Poison.Count} of them poison, to be dropped)" : "";
        console.MarkupLineInterpolated($"Scheduled burst {index.Burst}: {index.Count} orders{poison} for {scheduledAt:O}.");
        return true;
    }

    private static async Task<ClockSkew> MeasureStorageClockAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var storage = BlobClientFactory.Create(CommandSupport.StorageOptionsOf(result), OutboxStorage.CallTimeout);
        var clock = ServiceClock.OfContainer(storage.GetBlobContainerClient(OrderTopology.Outboxes[0]));
        var skew = await clock.MeasureAsync(ct);
        console.MarkupLineInterpolated($"{skew.Describe("storage")}");
        return skew;
    }

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
        var services = new ServiceCollection().AddLogging().AddSingleton<IConfiguration>(configuration).AddSidecarOutbound();
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
