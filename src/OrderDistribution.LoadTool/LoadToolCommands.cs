using System.CommandLine;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using OrderDistribution.Dapr;
using OrderDistribution.Orders;
using OrderDistribution.Storage;
using Spectre.Console;

namespace OrderDistribution.LoadTool;

/// <summary>
/// order-load: generate, schedule, watch, clear, and run (all four), for the 10,000-order burst.
/// Exit codes: 0 done; 1 orders not scheduled or still missing at the timeout; 2 bad input or configuration.
/// </summary>
public enum ScheduleTarget
{
    Local,
    Azure,
}

public static class LoadToolCommands
{
    private static readonly Option<string> Orders = new("--orders")
    {
        Description = "The orders file.", DefaultValueFactory = _ => Path.Combine("results", "orders.json"),
    };

    private static readonly Option<string> State = new("--state")
    {
        Description = "Where 'schedule' records the scheduled time for 'watch'.",
        DefaultValueFactory = _ => Path.Combine("results", "last-schedule.json"),
    };

    private static readonly Option<string?> StorageConnectionString = new("--storage")
    {
        Description = "Storage connection string (default: Storage__ConnectionString, else Azurite).",
    };

    private static readonly Option<string?> StorageAccountUrl = new("--storage-account-url")
    {
        Description = "Blob endpoint in Azure, reached with DefaultAzureCredential instead of a connection string.",
    };

    private static readonly Option<int> Count = new("--count") { Description = "How many orders.", DefaultValueFactory = _ => 10_000 };
    private static readonly Option<int?> Seed = new("--seed") { Description = "Makes generated orders the same every time." };
    private static readonly Option<bool> ToBlob = new("--to-blob") { Description = "Also upload the orders to blob test-data/orders.json." };

    private static readonly Option<ScheduleTarget> Target = new("--target")
    {
        Description = "local: through the distributor's sidecar, at once; azure: through a sidecar with the Azure Service Bus " +
                      "component, all orders enqueued at one scheduled instant.",
        DefaultValueFactory = _ => ScheduleTarget.Local,
    };

    private static readonly Option<int> ScheduleDelay = new("--schedule-delay")
    {
        Description = "Azure: seconds from now until the scheduled enqueue time; must cover the time scheduling takes.",
        DefaultValueFactory = _ => 30,
    };

    private static readonly Option<ComponentsModel> Model = new("--model")
    {
        Description = "The Dapr components model the trio runs: pubsub or bindings.", DefaultValueFactory = _ => ComponentsModel.Pubsub,
    };

    private static readonly Option<string> PubSubMode = new("--pubsub-mode")
    {
        Description = "bulk or single, as the apps run; recorded with the result.", DefaultValueFactory = _ => "bulk",
    };

    private static readonly Option<string> Sidecar = new("--sidecar")
    {
        Description = "The sidecar's HTTP endpoint (default: DAPR_HTTP_PORT when run under dapr run, else the distributor's, 3501).",
        DefaultValueFactory = _ => Environment.GetEnvironmentVariable("DAPR_HTTP_PORT") is { Length: > 0 } port
            ? $"http://127.0.0.1:{port}"
            : "http://127.0.0.1:3501",
    };

    private static readonly Option<int> MaxBulkBytes = new("--max-bulk-bytes")
    {
        Description = "Byte budget of one bulk publish.", DefaultValueFactory = _ => 131_072,
    };

    private static readonly Option<int> TimeoutSeconds = new("--timeout")
    {
        Description = "Seconds to wait for the last order before giving up.", DefaultValueFactory = _ => 300,
    };

    private static readonly Option<int> PollMilliseconds = new("--poll")
    {
        Description = "Milliseconds between looks at the outboxes.", DefaultValueFactory = _ => 1_000,
    };

    private static readonly Option<DateTimeOffset?> ScheduledAt = new("--scheduled-at")
    {
        Description = "When the orders were scheduled (default: from the schedule record).",
    };

    private static readonly Option<string> Results = new("--results")
    {
        Description = "The results log a run appends its line to.", DefaultValueFactory = _ => Path.Combine("results", "LOG.md"),
    };

    public static RootCommand Build(IAnsiConsole console)
    {
        var root = new RootCommand("Schedules a burst of orders and measures the cycle time until the last one is a blob.");
        foreach (var option in new Option[] { Orders, State, StorageConnectionString, StorageAccountUrl })
        {
            option.Recursive = true;
            root.Options.Add(option);
        }

        root.Subcommands.Add(Command(console, "generate", "Generate orders into the orders file.", [Count, Seed, ToBlob],
            (r, ct) => GenerateAsync(console, r, ct)));
        root.Subcommands.Add(Command(console, "schedule", "Put the orders on the ingress queue.", [Target, ScheduleDelay, Model, Sidecar, MaxBulkBytes],
            (r, ct) => ScheduleAsync(console, r, ct)));
        root.Subcommands.Add(Command(console, "watch", "Wait until every order is a blob and report the cycle time.",
            [TimeoutSeconds, PollMilliseconds, ScheduledAt], (r, ct) => WatchAsync(console, r, ct)));
        root.Subcommands.Add(Command(console, "clear", "Empty the outboxes.", [], (r, ct) => ClearAsync(console, r, ct)));
        root.Subcommands.Add(Command(console, "run", "clear, generate, schedule and watch; append the result to the results log.",
            [Count, Seed, Target, ScheduleDelay, Model, PubSubMode, Sidecar, MaxBulkBytes, TimeoutSeconds, PollMilliseconds, Results],
            (r, ct) => RunAsync(console, r, ct)));
        return root;
    }

    private static Command Command(IAnsiConsole console, string name, string description, Option[] options, Func<ParseResult, CancellationToken, Task<int>> action)
    {
        var command = new Command(name, description);
        foreach (var option in options)
        {
            command.Options.Add(option);
        }

        command.SetAction(async (result, ct) =>
        {
            try
            {
                return await action(result, ct);
            }
            catch (Exception e) when (e is InvalidDataException or FileNotFoundException or OptionsValidationException or ArgumentException)
            {
                console.MarkupLineInterpolated($"[red]{e.Message}[/]");
                return 2;
            }
        });
        return command;
    }

    private static async Task<int> GenerateAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var count = result.GetValue(Count);
        if (count < 1)
        {
            throw new ArgumentException($"--count must be at least 1, not {count}.");
        }

        var orders = OrderGenerator.Generate(count, result.GetValue(Seed));
        var path = result.GetValue(Orders)!;
        await OrderFile.WriteAsync(path, orders, ct);
        if (result.GetValue(ToBlob))
        {
            var storage = await OpenStorageAsync(result, ct);
            await storage.UploadTestDataAsync(OrderFile.Serialize(orders), ct);
        }

        var express = orders.Count(o => o.Delivery == Delivery.Express);
        console.MarkupLineInterpolated($"Generated {orders.Count} orders ({express} express, {orders.Count - express} standard) into {path}.");
        return 0;
    }

    private static async Task<int> ScheduleAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var orders = await OrderFile.ReadAsync(result.GetValue(Orders)!, ct);
        var model = result.GetValue(Model);
        var target = result.GetValue(Target);
        var sidecar = new DaprHttpPublisher(new HttpClient { BaseAddress = AbsoluteUri(Sidecar, result.GetValue(Sidecar)), Timeout = TimeSpan.FromSeconds(60) });
        var messaging = Options.Create(new MessagingOptions { MaxBulkPublishBytes = result.GetValue(MaxBulkBytes) });
        Validate(messaging.Value);
        var scheduler = new SidecarScheduler(
            new BulkOrderPublisher(sidecar, messaging, DaprSidecarResilience.Create(new DaprSidecarOptions().Limits), NullLogger<BulkOrderPublisher>.Instance),
            sidecar, "q-order-ingress", "q-order-ingress-output");

        // Azure: the orders go on the Service Bus ingress queue whatever model the apps run, all visible
        // at one whole second (the broker's and the blobs' time resolution).
        DateTimeOffset? enqueueAt = target == ScheduleTarget.Azure
            ? DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds() + ScheduleDelaySeconds(result))
            : null;
        var scheduledAt = enqueueAt ?? DateTimeOffset.UtcNow;
        var failed = await WithProgressAsync(console, $"Scheduling {orders.Count} orders ({target}, {model})", orders.Count,
            progress => scheduler.ScheduleAsync(orders, enqueueAt is null ? model : ComponentsModel.Pubsub, enqueueAt, progress, ct));
        await ScheduleRecord.WriteAsync(result.GetValue(State)!,
            new ScheduleRecord(scheduledAt, model.ToString().ToLowerInvariant(), orders.Count, result.GetValue(Orders)!), ct);

        if (failed.Count > 0)
        {
            console.MarkupLineInterpolated($"[red]{failed.Count} orders were not scheduled, first {failed[0]}.[/]");
            return 1;
        }

        if (enqueueAt < DateTimeOffset.UtcNow)
        {
            console.MarkupLineInterpolated($"[yellow]Scheduling took longer than --schedule-delay: some orders were visible late, and the cycle time includes that.[/]");
        }

        console.MarkupLineInterpolated($"Scheduled {orders.Count} orders for {scheduledAt:O}.");
        return 0;
    }

    private static int ScheduleDelaySeconds(ParseResult result) =>
        result.GetValue(ScheduleDelay) is >= 1 and <= 3_600 and var seconds
            ? seconds
            : throw new ArgumentException($"--schedule-delay must be between 1 and 3600 seconds, not {result.GetValue(ScheduleDelay)}.");

    private static async Task<int> WatchAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var record = await ScheduleRecordOrNullAsync(result, ct);
        var report = await WatchReportAsync(console, result, record, ct);
        console.WriteLine(report.Summary(record?.Model ?? "watch"));
        return ReportExitCode(console, report);
    }

    private static async Task<int> ClearAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var storage = await OpenStorageAsync(result, ct);
        var deleted = await WithProgressAsync(console, "Clearing the outboxes", null, progress => storage.ClearAsync(progress, ct));
        console.MarkupLineInterpolated($"Deleted {deleted} blobs from {string.Join(", ", storage.Outboxes)}.");
        return 0;
    }

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        foreach (var step in new Func<IAnsiConsole, ParseResult, CancellationToken, Task<int>>[] { ClearAsync, GenerateAsync, ScheduleAsync })
        {
            if (await step(console, result, ct) is not 0 and var failed)
            {
                return failed;
            }
        }

        var report = await WatchReportAsync(console, result, await ScheduleRecordOrNullAsync(result, ct), ct);
        var model = $"{result.GetValue(Model).ToString().ToLowerInvariant()}-{result.GetValue(PubSubMode)}";
        console.WriteLine(report.Summary(model));
        await ResultsLog.AppendAsync(result.GetValue(Results)!, model, report, ct);
        return ReportExitCode(console, report);
    }

    /// <param name="record">What 'schedule' recorded; --scheduled-at, when given, wins over it.</param>
    private static async Task<WatchReport> WatchReportAsync(IAnsiConsole console, ParseResult result, ScheduleRecord? record, CancellationToken ct)
    {
        var orders = await OrderFile.ReadAsync(result.GetValue(Orders)!, ct);
        var scheduledAt = result.GetValue(ScheduledAt) ?? record?.ScheduledAt ?? throw new FileNotFoundException(
            $"No schedule record at {result.GetValue(State)}: run 'schedule' first, or pass --scheduled-at.");
        var watcher = new OutboxWatcher(await OpenStorageAsync(result, ct), TimeSpan.FromMilliseconds(result.GetValue(PollMilliseconds)));
        return await WithProgressAsync(console, $"Waiting for {orders.Count} blobs", orders.Count, progress =>
            watcher.WatchAsync(orders.Select(o => o.OrderId).ToList(), scheduledAt,
                TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)), progress, ct));
    }

    private static int ReportExitCode(IAnsiConsole console, WatchReport report)
    {
        if (report.Complete)
        {
            return 0;
        }

        console.MarkupLineInterpolated($"[red]Still missing at the timeout: {string.Join(", ", report.Missing.Take(20))}{(report.Missing.Count > 20 ? ", …" : "")}[/]");
        return 1;
    }

    private static async Task<ScheduleRecord?> ScheduleRecordOrNullAsync(ParseResult result, CancellationToken ct) =>
        File.Exists(result.GetValue(State)) ? await ScheduleRecord.ReadAsync(result.GetValue(State)!, ct) : null;

    private static async Task<OutboxStorage> OpenStorageAsync(ParseResult result, CancellationToken ct)
    {
        var accountUrl = result.GetValue(StorageAccountUrl);
        var options = new StorageOptions
        {
            AccountUrl = accountUrl is null ? null : AbsoluteUri(StorageAccountUrl, accountUrl),
            ConnectionString = accountUrl is null
                ? result.GetValue(StorageConnectionString)
                  ?? Environment.GetEnvironmentVariable("Storage__ConnectionString")
                  ?? "UseDevelopmentStorage=true"
                : null,
        };
        if (new StorageOptionsValidator().Validate(null, options) is { Failed: true } invalid)
        {
            throw new ArgumentException(invalid.FailureMessage);
        }

        return await OutboxStorage.OpenAsync(options, OutboxStorage.DefaultOutboxes, ct);
    }

    private static Uri AbsoluteUri(Option option, string? value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? uri
            : throw new ArgumentException($"{option.Name} must be an absolute http(s) URL, not '{value}'.");

    private static void Validate(MessagingOptions messaging)
    {
        var errors = new List<System.ComponentModel.DataAnnotations.ValidationResult>();
        if (!System.ComponentModel.DataAnnotations.Validator.TryValidateObject(messaging, new(messaging), errors, true))
        {
            throw new ArgumentException(string.Join(" ", errors.Select(e => e.ErrorMessage)));
        }
    }

    private static async Task<T> WithProgressAsync<T>(IAnsiConsole console, string description, int? total, Func<IProgress<int>, Task<T>> work) =>
        await console.Progress().AutoClear(false).StartAsync(async context =>
        {
            var task = context.AddTask(description, maxValue: total ?? 1);
            task.IsIndeterminate = total is null;
            var result = await work(new Progress<int>(done => task.Value = done));
            task.Value = task.MaxValue;
            return result;
        });
}
