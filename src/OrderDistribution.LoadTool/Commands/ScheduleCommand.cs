using System.CommandLine;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using OrderDistribution.Dapr;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>schedule</c>: the orders file, poison included, onto the ingress queue through a sidecar.</summary>
internal static class ScheduleCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("schedule", "Put the orders on the ingress queue.") { Target, ScheduleDelay, Model, Sidecar, MaxBulkBytes },
            (result, ct) => RunAsync(console, result, ct));

    public static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var set = await OrderFile.ReadSetAsync(result.GetValue(OrdersFile)!, ct);
        var model = result.GetValue(Model);
        var target = result.GetValue(Target);
        var messaging = Options.Create(new MessagingOptions { MaxBulkPublishBytes = result.GetValue(MaxBulkBytes) });
        Validate(messaging.Value);
        // Azure: the burst's instant in storage's time (Azure's), so that the cycle time has one clock.
        var skew = target == ScheduleTarget.Azure ? await MeasureStorageClockAsync(console, result, ct) : default;
        DateTimeOffset? enqueueAt = target == ScheduleTarget.Azure
            ? DateTimeOffset.FromUnixTimeSeconds(skew.ToServiceTime(DateTimeOffset.UtcNow).ToUnixTimeSeconds() + ScheduleDelaySeconds(result))
            : null;

        using var http = CommandSupport.SidecarClient(result);
        await CommandSupport.CheckSidecarAsync(console, http, model, target, ct);
        var sidecar = new DaprHttpPublisher(http);
        var scheduler = new SidecarScheduler(
            new BulkOrderPublisher(sidecar, messaging, DaprSidecarResilience.Create(new DaprSidecarOptions().Limits), NullLogger<BulkOrderPublisher>.Instance),
            sidecar, SidecarMetadata.IngressTopic, "q-order-ingress-output");

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
        var accountUrl = result.GetValue(StorageAccountUrl);
        var clock = ServiceClock.OfStorage(
            accountUrl is null ? null : CommandSupport.AbsoluteUri(StorageAccountUrl, accountUrl),
            result.GetValue(StorageConnectionString) ?? Environment.GetEnvironmentVariable("Storage__ConnectionString") ?? "UseDevelopmentStorage=true",
            WatchExpectation.OutboxFor(Orders.Delivery.Express));
        var skew = await clock.MeasureAsync(ct);
        console.MarkupLineInterpolated($"{skew.Describe("storage")}");
        return skew;
    }

    private static int ScheduleDelaySeconds(ParseResult result) =>
        result.GetValue(ScheduleDelay) is >= 1 and <= 3_600 and var seconds
            ? seconds
            : throw new ArgumentException($"--schedule-delay must be between 1 and 3600 seconds, not {result.GetValue(ScheduleDelay)}.");

    private static void Validate(MessagingOptions messaging)
    {
        var errors = new List<System.ComponentModel.DataAnnotations.ValidationResult>();
        if (!System.ComponentModel.DataAnnotations.Validator.TryValidateObject(messaging, new(messaging), errors, true))
        {
            throw new ArgumentException(string.Join(" ", errors.Select(e => e.ErrorMessage)));
        }
    }
}
