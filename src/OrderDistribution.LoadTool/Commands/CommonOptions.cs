using System.CommandLine;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>The options several commands share, each with its rule; a command's own options are in its file.</summary>
internal static class CommonOptions
{
    /// <summary>The largest burst the tool generates, schedules and watches.</summary>
    public const int MaxOrders = 1_000_000;

    public static readonly Option<string> OrdersFile = new Option<string>("--orders")
    {
        Description = "The orders file.",
        DefaultValueFactory = _ => Path.Combine("results", "orders.json"),
    }.Text("a file's path");

    public static readonly Option<string> State = new Option<string>("--state")
    {
        Description = "Where 'schedule' records the scheduled time for 'watch'.",
        DefaultValueFactory = _ => Path.Combine("results", "last-schedule.json"),
    }.Text("a file's path");

    public static readonly Option<string> StorageConnectionString = new Option<string>("--storage")
    {
        Description = "Storage connection string (default: Storage__ConnectionString, else Azurite).",
    }.Text("a storage connection string");

    public static readonly Option<string> StorageAccountUrl = new Option<string>("--storage-account-url")
    {
        Description = "Blob endpoint in Azure, reached with DefaultAzureCredential instead of a connection string.",
    }.HttpUrl();

    public static readonly Option<bool> Verbose = new Option<bool>("--verbose")
    {
        Description = "On a failure, also print the exception with its stack trace.",
    };

    public static readonly Option<int> Count = new Option<int>("--count")
    {
        Description = "How many orders, poison included.",
        DefaultValueFactory = _ => 10_000,
    }.Between(1, MaxOrders);

    public static readonly Option<int?> Seed = new Option<int?>("--seed")
    {
        Description = "Makes generated orders the same every time.",
    }.AnyWhole();

    public static readonly Option<double> InvalidRate = new Option<double>("--invalid-rate")
    {
        Description = "Share of the orders that are poison (unknown delivery, missing fields, not JSON at all); " +
                      "the apps drop them, and watch reports them as dropped, never as missing.",
        DefaultValueFactory = _ => 0,
    }.AtLeastZeroBelowOne();

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
    public static readonly Option<MessagingModel?> Model = new("--model")
    {
        Description = "The messaging model the trio runs, as the apps' Messaging:Model " +
                      $"(default: {new MessagingOptions().Model.Text()}); " +
                      "checked with the distributor's sidecar as far as it tells, and the label of the result.",
        HelpName = string.Join('|', MessagingModels.Spellings),
        CustomParser = ModelSpellings.Parse,
    };

    public static MessagingModel ModelOf(ParseResult result) => result.GetValue(Model) ?? new MessagingOptions().Model;

    public static readonly Option<string> Sidecar = SidecarEndpoint(
        "--sidecar", "The sidecar's HTTP endpoint", "DAPR_HTTP_PORT", 3501);

    public static readonly Option<string> SidecarGrpc = SidecarEndpoint(
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

    public static readonly Option<string> Results = new Option<string>("--results")
    {
        Description = "The results log a run appends its line to; the per-second series goes beside it as CSV.",
        DefaultValueFactory = _ => Path.Combine("results", "LOG.md"),
    }.Text("a file's path");

    public static readonly Option<int> LeaseSeconds = new Option<int>("--lease")
    {
        Description = "Seconds the hold on the store (one burst at a time per store) lasts unless renewed; renewed " +
                      "every quarter of it, so a tool that is killed lets go within it.",
        DefaultValueFactory = _ => (int)StoreLease.DefaultDuration.TotalSeconds,
    }.Between(
        (int)StoreLease.ShortestDuration.TotalSeconds, (int)StoreLease.LongestDuration.TotalSeconds, " seconds");

    /// <summary>Options every command takes.</summary>
    public static readonly Option[] Global = [OrdersFile, State, StorageConnectionString, StorageAccountUrl, Verbose];

    /// <summary>
    /// A sidecar endpoint: the port dapr run gives the tool in <paramref name="portVariable"/>, else the distributor's
    /// sidecar's.
    /// </summary>
    private static Option<string> SidecarEndpoint(
        string name, string what, string portVariable, int distributorsPort) =>
        new Option<string>(name)
        {
            Description = $"{what} (default: {portVariable} when run under dapr run, else the distributor's, " +
                          $"{distributorsPort}).",
            DefaultValueFactory = _ =>
                Environment.GetEnvironmentVariable(portVariable) is { Length: > 0 } port
                    ? $"http://127.0.0.1:{port}"
                    : $"http://127.0.0.1:{distributorsPort}",
        }.HttpUrl();
}
