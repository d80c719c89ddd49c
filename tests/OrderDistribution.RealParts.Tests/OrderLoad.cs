using System.Globalization;
using OrderDistribution.Messaging;
using Spectre.Console;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// order-load in the test process, as a user runs it against the trio: through the distributor's sidecar with the
/// tool's own Dapr client, watching the trio's storage. Its files live in a temp folder of its own.
/// </summary>
public sealed class OrderLoad : IDisposable
{
    private readonly RealTrio? _trio;
    private readonly string _storage;
    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-").FullName;

    public OrderLoad(RealTrio trio)
        : this(trio.Parts.StorageConnectionString) => _trio = trio;

    /// <summary>Without a trio: the commands that need no sidecar (generate, watch, clear) on this storage.</summary>
    internal OrderLoad(string storageConnectionString) => _storage = storageConnectionString;

    public string OrdersFile => Path.Combine(_folder, "orders.json");

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    /// <summary><c>run</c>: clear, generate, schedule and watch one burst.</summary>
    public Task<OrderLoadResult> BurstAsync(int count, int seed, double invalidRate = 0, int timeoutSeconds = 180)
    {
        var trio = _trio
            ?? throw new InvalidOperationException(
            "A burst goes through a trio's sidecar: make the OrderLoad with the trio.");
        return RunAsync("run", "--count", Text(count), "--seed", Text(seed), "--invalid-rate",
            invalidRate.ToString(CultureInfo.InvariantCulture),
            "--model", trio.Model.Text(), "--timeout", Text(timeoutSeconds),
            "--poll", "200", "--max-poll", "1000",
            "--sidecar", trio.DistributorSidecar.HttpEndpoint.ToString(), "--sidecar-grpc",
                trio.DistributorSidecar.GrpcEndpoint.ToString());
    }

    /// <summary>
    /// Any command, with the trio's storage and this instance's files (the results log for the commands that write
    /// one).
    /// </summary>
    public async Task<OrderLoadResult> RunAsync(params string[] args)
    {
        var output = new StringWriter(CultureInfo.InvariantCulture);
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 400;
        var exitCode = await LoadToolCommands.InvokeAsync(console, output, ArgumentsOf(args));
        return new OrderLoadResult(exitCode, output.ToString());
    }

    /// <summary>
    /// <paramref name="args"/> with the storage and this instance's files, as the command takes them.
    /// </summary>
    internal string[] ArgumentsOf(string[] args)
    {
        List<string> files = ["--storage", _storage, "--orders", OrdersFile, "--state",
            Path.Combine(_folder, "schedule.json")];
        if (WritesResults(args))
        {
            files.AddRange(["--results", Path.Combine(_folder, "LOG.jsonl")]);
        }

        return [.. args, .. files];
    }

    /// <summary>
    /// Whether the command <paramref name="args"/> names takes <c>--results</c> (run does; generate, watch and clear
    /// refuse it).
    /// </summary>
    private static bool WritesResults(string[] args) =>
        LoadToolCommands.Build(AnsiConsole.Console).Subcommands.FirstOrDefault(c => args.Length > 0
            && c.Name == args[0]) is { } command
        && command.Options.Any(o => o.Name == "--results");

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
