using System.Globalization;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Storage;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>
/// Schedules an orders file through a sidecar as <see cref="ScheduleSettings"/> say, records when for 'watch', and
/// prints the outcome. The orders are read from the file again as they are published, a chunk at a time.
/// </summary>
/// <param name="store">The store measured: held while the burst goes in; in Azure its clock sets the instant.</param>
/// <param name="configurePublishing">
/// Changes the publishing services before use (tests put an emulator behind them).
/// </param>
public sealed class BurstScheduler(
    IAnsiConsole console,
    ScheduleSettings settings,
    ToolStore store,
    Action<IServiceCollection>? configurePublishing)
{
    private bool _sidecarChecked;

    /// <summary>
    /// <c>schedule</c>: the orders file checked whole (bad input first), then the store held meanwhile.
    /// </summary>
    /// <returns>The exit code: done when every entry went in.</returns>
    public async Task<int> RunAsync(CancellationToken ct)
    {
        var index = await OrderFile.ReadIndexAsync(settings.OrdersFile, ct);
        await using var lease = await store.HoldAsync(await store.OpenAsync(ct), "schedule", index.Burst, ct);
        return await lease.HoldingAsync(held => ScheduleAsync(index, held), ct) ? ExitCodes.Done : ExitCodes.Incomplete;
    }

    /// <summary>Schedules the orders file, checked whole as <paramref name="index"/>.</summary>
    /// <returns>Whether every entry went in.</returns>
    public async Task<bool> ScheduleAsync(OrderIndex index, CancellationToken ct)
    {
        var (model, target) = (settings.Model, settings.Target);
        await using var publishing = Publishing();
        // Azure: the burst's instant in storage's time (Azure's), so that the cycle time has one clock.
        var skew = target == ScheduleTarget.Azure ? await MeasureStorageClockAsync(ct) : default;
        DateTimeOffset? enqueueAt = target == ScheduleTarget.Azure
            ? DateTimeOffset.FromUnixTimeSeconds(
                skew.ToServiceTime(store.Time.GetUtcNow()).ToUnixTimeSeconds() + settings.Delay)
            : null;

        if (!_sidecarChecked)
        {
            await CheckSidecarAsync(ct);
        }

        var scheduler = new SidecarScheduler(
            publishing.GetRequiredService<BulkOrderPublisher>(), publishing.GetRequiredService<IOutputBindings>(),
            OrderTopology.IngressQueue, OrderTopology.IngressOutputBinding);

        // Azure: the orders go on the Service Bus ingress queue whatever model the apps run, all visible
        // at one whole second (the broker's time resolution).
        var scheduledAt = enqueueAt ?? store.Time.GetUtcNow();
        var outcome = await console.WithProgressAsync(
            $"Scheduling {index.Count} orders ({target}, {model.Text()})", index.Count,
            (progress, _) => scheduler.ScheduleAsync(
                OrderFile.ReadOrdersAsync(settings.OrdersFile, ct), index.Poison,
                enqueueAt is null ? model : MessagingModel.PubSubBulk, enqueueAt, progress, ct));
        await ScheduleRecord.WriteAsync(settings.State,
            new ScheduleRecord(scheduledAt, model.Text(), index.Count, settings.OrdersFile)
            {
                ClockSkewSeconds = target == ScheduleTarget.Azure ? skew.Offset.TotalSeconds : null,
                Burst = index.Burst.Value,
            }, ct);

        if (outcome.Failed.Count > 0)
        {
            var why = outcome.FirstFailure ?? "the sidecar gave no reason";
            var (failed, first) = (outcome.Failed.Count, outcome.Failed[0]);
            var went = $"{outcome.Scheduled} went in; first not scheduled: {first}";
            console.MarkupLineInterpolated(
                $"[red]{failed} of {outcome.Attempted} orders were not scheduled ({went}): {why}.[/]");
            return false;
        }

        if (enqueueAt < skew.ToServiceTime(store.Time.GetUtcNow()))
        {
            console.MarkupLine(
                "[yellow]Scheduling took longer than --schedule-delay: some orders were visible late, and the cycle " +
                "time includes that.[/]");
        }

        var poison = index.Poison.Count > 0 ? $" ({index.Poison.Count} of them poison, to be dropped)" : "";
        console.MarkupLineInterpolated(
            $"Scheduled burst {index.Burst}: {index.Count} orders{poison} for {scheduledAt:O}.");
        return true;
    }

    /// <summary>Asks the sidecar what it runs (<see cref="CheckSidecar"/>).</summary>
    /// <exception cref="LoadToolException">The sidecar is not reachable, or runs another model.</exception>
    private async Task CheckSidecarAsync(CancellationToken ct)
    {
        using var sidecar = SidecarMetadata.Client(settings.Sidecar);
        CheckSidecar(await SidecarMetadata.ReadAsync(sidecar, ct));
    }

    /// <summary>What the sidecar said it runs: locally its app must run the model. Once per scheduler: 'run' reads
    /// the metadata before it takes the store and checks it before it changes anything.</summary>
    /// <param name="metadata">The sidecar's metadata; null when it offers no metadata API.</param>
    /// <exception cref="LoadToolException">The sidecar runs another model.</exception>
    public void CheckSidecar(SidecarMetadata? metadata)
    {
        _sidecarChecked = true;
        if (metadata is null)
        {
            console.MarkupLineInterpolated(
                $"[yellow]The sidecar at {settings.Sidecar} offers no metadata API: the model was not checked.[/]");
        }
        else if (settings.Target == ScheduleTarget.Local)
        {
            // In Azure the sidecar is the load tool's own (scripts/azure-burst.sh): it subscribes to nothing.
            metadata.EnsureModel(settings.Model, settings.Sidecar);
        }
    }

    private async Task<ClockSkew> MeasureStorageClockAsync(CancellationToken ct)
    {
        var service = BlobClientFactory.Create(store.Options, OutboxStorage.CallTimeout);
        var clock = ServiceClock.OfContainer(service.GetBlobContainerClient(OrderTopology.Outboxes[0]), store.Time);
        var skew = await clock.MeasureAsync(ct);
        console.MarkupLineInterpolated($"{skew.Describe("storage")}");
        return skew;
    }

    /// <summary>The distributor's own publishing, at the sidecar the settings name.</summary>
    /// <exception cref="ArgumentException">A setting is out of range; the message names its option.</exception>
    private ServiceProvider Publishing()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["DAPR_HTTP_ENDPOINT"] = settings.Sidecar.ToString(),
            ["DAPR_GRPC_ENDPOINT"] = settings.SidecarGrpc.ToString(),
            [$"{MessagingOptions.Section}:{nameof(MessagingOptions.MaxBulkPublishBytes)}"] =
                settings.MaxBulkBytes.ToString(CultureInfo.InvariantCulture),
        }).Build();
        var services = new ServiceCollection().AddLogging().AddSingleton<IConfiguration>(configuration)
            .AddSidecarOutbound();
        configurePublishing?.Invoke(services);
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
