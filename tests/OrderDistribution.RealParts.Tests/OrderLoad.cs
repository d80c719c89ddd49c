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
    private readonly TempFolder _folder = new("order-load-");

    public OrderLoad(RealTrio trio)
        : this(trio.Parts.StorageConnectionString) => _trio = trio;

    /// <summary>Without a trio: the commands that need no sidecar (generate, watch, clear) on this storage.</summary>
    internal OrderLoad(string storageConnectionString) => _storage = storageConnectionString;

    public string OrdersFile => Path.Combine(_folder.Path, "orders.json");

    public void Dispose() => _folder.Dispose();

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
    /// Any command, with the trio's storage and this instance's files (the results file for the commands that write
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
    /// <paramref name="args"/> with the storage and this instance's files, those the command takes (run takes them
    /// all; generate no --state, clear only the storage).
    /// </summary>
    internal string[] ArgumentsOf(string[] args)
    {
        string[][] given =
        [
            ["--storage", _storage], ["--orders", OrdersFile], ["--state", Path.Combine(_folder.Path, "schedule.json")],
            ["--results", Path.Combine(_folder.Path, "LOG.jsonl")],
        ];
        var takes = LoadToolCommands.Build(AnsiConsole.Console).Subcommands
            .FirstOrDefault(c => args.Length > 0 && c.Name == args[0])?.Options.Select(o => o.Name).ToHashSet() ?? [];
        return [.. args, .. given.Where(option => takes.Contains(option[0])).SelectMany(option => option)];
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
