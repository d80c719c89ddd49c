using System.CommandLine;
using Azure.Core;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Queues;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.Messaging;
using OrderDistribution.Receiver;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// Every option of order-load's commands, each declared once with its type and rule (<see cref="OptionRules"/>);
/// a command composes those it reads, so it takes no other.
/// </summary>
internal static class LoadToolOptions
{
    /// <summary>The largest burst the tool generates, schedules and watches.</summary>
    public const int MaxOrders = 1_000_000;

    /// <summary>The one option every command honours.</summary>
    public static readonly Option<bool> Verbose = new("--verbose")
    {
        Description = "On a failure, also print the exception with its stack trace.",
        Recursive = true,
    };

    public static readonly Option<FileInfo> Orders = new("--orders")
    {
        Description = "The orders file.",
        DefaultValueFactory = _ => new FileInfo(Path.Combine("results", "orders.json")),
    };

    public static readonly Option<FileInfo> State = new("--state")
    {
        Description = "Where 'schedule' records the scheduled time for 'watch'.",
        DefaultValueFactory = _ => new FileInfo(Path.Combine("results", "last-schedule.json")),
    };

    public static readonly Option<string> StorageConnectionString = new Option<string>("--storage")
    {
        Description = "Storage connection string (default: Storage__ConnectionString, else Azurite).",
    }.Text("a storage connection string");

    public static readonly Option<Uri?> StorageAccountUrl = new Option<Uri?>("--storage-account-url")
    {
        Description = "Blob endpoint in Azure, reached with DefaultAzureCredential instead of a connection string.",
    }.Http();

    public static readonly Option<int> LeaseSeconds = new Option<int>("--lease")
    {
        Description = "Seconds the hold on the store (one burst at a time per store) lasts unless renewed; renewed " +
                      "every quarter of it, so a tool that is killed lets go within it.",
        DefaultValueFactory = _ => (int)StoreLease.DefaultDuration.TotalSeconds,
    }.Between(
        (int)StoreLease.ShortestDuration.TotalSeconds, (int)StoreLease.LongestDuration.TotalSeconds, " seconds");

    public static readonly Option<int> Count = new Option<int>("--count")
    {
        Description = "How many orders, poison included (ceiling: how many order blobs to upload).",
        DefaultValueFactory = _ => 10_000,
    }.Between(1, MaxOrders);

    public static readonly Option<int?> Seed = new("--seed")
    {
        Description = "Makes generated orders the same every time.",
    };

    public static readonly Option<double> InvalidRate = new Option<double>("--invalid-rate")
    {
        Description = "Share of the orders that are poison (unknown delivery, missing fields, not JSON at all); " +
                      "the apps drop them, and watch reports them as dropped, never as missing.",
        DefaultValueFactory = _ => 0,
    }.AtLeastZeroBelowOne();

    public static readonly Option<bool> ToBlob = new("--to-blob")
    {
        Description = "Also upload the orders to blob test-data/orders.json.",
    };

    public static readonly Option<ScheduleTarget> Target = new Option<ScheduleTarget>("--target")
    {
        Description = "local: through the distributor's sidecar, at once; azure: through a sidecar with the Azure " +
                      "Service Bus component, all orders enqueued at one scheduled instant.",
        DefaultValueFactory = _ => ScheduleTarget.Local,
    }.OneOf();

    public static readonly Option<int> ScheduleDelay = new Option<int>("--schedule-delay")
    {
        Description = "Azure: seconds from now until the scheduled enqueue time; must cover the time scheduling takes.",
        DefaultValueFactory = _ => 30,
    }.Between(1, 3_600, " seconds");

    /// <summary>Read it with <see cref="ModelOf"/>, which gives the apps' default when it is not given.</summary>
    public static readonly Option<MessagingModel?> Model = new Option<MessagingModel?>("--model")
    {
        Description = "The messaging model the trio runs, as the apps' Messaging:Model " +
                      $"(default: {new MessagingOptions().Model.Text()}); " +
                      "checked with the distributor's sidecar as far as it tells, and the label of the result.",
        HelpName = string.Join('|', MessagingModels.Spellings),
    }.Takes(MessagingModels.ValidSpellings,
        text => MessagingModels.TryParse(text, out var model) ? model.Value : null);

    public static MessagingModel ModelOf(ParseResult result) => result.GetValue(Model) ?? new MessagingOptions().Model;

    public static readonly Option<Uri?> Sidecar = SidecarEndpoint(
        "--sidecar", "The sidecar's HTTP endpoint", "DAPR_HTTP_PORT", 3501);

    public static readonly Option<Uri?> SidecarGrpc = SidecarEndpoint(
        "--sidecar-grpc", "The sidecar's gRPC endpoint, which publishes", "DAPR_GRPC_PORT", 50011);

    public static readonly Option<int> MaxBulkBytes = new Option<int>("--max-bulk-bytes")
    {
        Description = "Byte budget of one bulk publish (default and range: the apps' Messaging:MaxBulkPublishBytes).",
        DefaultValueFactory = _ => new MessagingOptions().MaxBulkPublishBytes,
    }.InRangeOf<MessagingOptions>(nameof(MessagingOptions.MaxBulkPublishBytes));

    public static readonly Option<int> TimeoutSeconds = new Option<int>("--timeout")
    {
        Description = "Seconds to wait for the last order before giving up " +
                      "(a storage outage is waited out within it).",
        DefaultValueFactory = _ => 300,
    }.Between(1, 86_400, " seconds");

    public static readonly Option<int> PollMilliseconds = new Option<int>("--poll")
    {
        Description = "Shortest wait between looks at the outboxes, in ms. Looks back off while nothing changes and " +
                      "aim at the projected finish; the cycle time comes from the blobs' own stored times, whatever " +
                      "the poll.",
        DefaultValueFactory = _ => 1_000,
    }.Between(10, 600_000, " ms");

    public static readonly Option<int> MaxPollMilliseconds = new Option<int>("--max-poll")
    {
        Description = "Longest wait between looks at the outboxes, in ms (at least --poll).",
        DefaultValueFactory = _ => 15_000,
    }.Between(10, 600_000, " ms");

    public static readonly Option<DateTimeOffset?> ScheduledAt = new("--scheduled-at")
    {
        Description = "When the orders were scheduled (default: from the schedule record).",
    };

    public static readonly Option<FileInfo> Results = new Option<FileInfo>("--results")
    {
        Description = "The results file a run appends its record to (one JSON line); the Markdown log (.md) and " +
                      "the per-second series (CSV) go beside it.",
        DefaultValueFactory = _ => new FileInfo(ResultsFile.DefaultPath),
    }.Must("a results file's path (the Markdown log is rendered beside it, as .md)",
        file => !ResultsFile.IsMarkdown(file.ToString()));

    public static readonly Option<BurstStart?> Start = new Option<BurstStart?>("--start")
    {
        Description = "cold: the first burst since the trio started; warm: a later one. Kept in the burst's result " +
                      "(default: not recorded; scripts/azure-burst.sh tells it from the replicas' ages).",
    }.OneOf();

    public static readonly Option<DirectoryInfo> Processes = new("--processes")
    {
        Description = "The folder where scripts/run-local.sh names the processes it started and its broker: their " +
                      "CPU, memory and queues are measured over the burst (none if it does not exist).",
        DefaultValueFactory = _ => new DirectoryInfo(LocalProcesses.DefaultFolder),
    };

    public static readonly Option<ResourceIdentifier?> ServiceBusNamespace =
        new Option<ResourceIdentifier?>("--servicebus-namespace-id")
        {
            Description = "Azure: the Service Bus namespace's resource id, whose queues' active messages are read " +
                          "every second of the burst (Reader on it is enough; scripts/azure-burst.sh gives it).",
        }.Takes("a Service Bus namespace's resource id (/subscriptions/<id>/resourceGroups/<group>/providers/" +
                "Microsoft.ServiceBus/namespaces/<name>)", ServiceBusQueueDepths.NamespaceOf);

    public static readonly Option<int> InFlight = new Option<int>("--in-flight")
    {
        Description = "Uploads in flight at once (default: the receivers' own Receiver:MaxConcurrentWrites).",
        DefaultValueFactory = _ => new ReceiverOptions().MaxConcurrentWrites,
    }.Between(1, 1_024);

    public static readonly Option<string> Redis = new Option<string>("--redis")
    {
        Description = "The local pub/sub model's Redis (host:port).",
        DefaultValueFactory = _ => "127.0.0.1:6379",
    }.Text("a Redis host:port");

    public static readonly Option<Uri?> RabbitMq = new Option<Uri?>("--rabbitmq")
    {
        Description = "The local bindings model's RabbitMQ and vhost, as components-bindings/ name them " +
                      "(amqp://guest:guest@127.0.0.1:5672/orders).",
    }.Absolute("an amqp:// URI with the vhost as its path", "amqp");

    public static readonly Option<string?> ServiceBus = new Option<string?>("--service-bus")
    {
        Description = "The Service Bus namespace in Azure (its host name, SERVICEBUS_NAMESPACE_FQDN), reached with " +
                      "DefaultAzureCredential.",
    }.Must("a namespace's host name (e.g. sb-x.servicebus.windows.net)",
        text => Uri.CheckHostName(text) == UriHostNameType.Dns);

    public static readonly Option<string> Resubmit = new Option<string>("--resubmit")
    {
        Description =
            "Put this letter's body (by its id, as listed) on the ingress queue again and take the letter off.",
    }.Text("a letter's id, as listed");

    /// <summary>Where the store is: every command that reads or writes it.</summary>
    public static readonly Option[] StoreOptions = [StorageConnectionString, StorageAccountUrl];

    /// <summary>The burst to generate.</summary>
    public static readonly Option[] BurstOptions = [Count, Seed, InvalidRate];

    /// <summary>How and where the orders are scheduled.</summary>
    public static readonly Option[] ScheduleOptions =
        [Target, ScheduleDelay, Model, Sidecar, SidecarGrpc, MaxBulkBytes];

    /// <summary>How long and how often the outboxes are watched.</summary>
    public static readonly Option[] WatchOptions = [TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds];

    /// <summary>Lets a command list a group of options among its own.</summary>
    public static void Add(this Command command, Option[] options)
    {
        foreach (var option in options)
        {
            command.Options.Add(option);
        }
    }

    /// <summary>An absolute http(s) URL.</summary>
    private static Option<Uri?> Http(this Option<Uri?> option) =>
        option.Absolute("an absolute http(s) URL", Uri.UriSchemeHttp, Uri.UriSchemeHttps);

    /// <summary>
    /// A sidecar endpoint: the port dapr run gives the tool in <paramref name="portVariable"/>, else the distributor's
    /// sidecar's.
    /// </summary>
    private static Option<Uri?> SidecarEndpoint(string name, string what, string portVariable, int distributorsPort) =>
        new Option<Uri?>(name)
        {
            Description = $"{what} (default: {portVariable} when run under dapr run, else the distributor's, " +
                          $"{distributorsPort}).",
            DefaultValueFactory = _ => new Uri(
                Environment.GetEnvironmentVariable(portVariable) is { Length: > 0 } port
                    ? $"http://127.0.0.1:{port}"
                    : $"http://127.0.0.1:{distributorsPort}"),
        }.Http();
}
