using System.Globalization;
using OrderDistribution.LoadTool;
using Spectre.Console;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// order-load in the test process, as a user runs it against the trio: through the distributor's sidecar with the
/// tool's own Dapr client, watching the trio's storage. Its files live in a temp folder of its own.
/// </summary>
public sealed class OrderLoad(RealTrio trio) : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-").FullName;

    public string OrdersFile => Path.Combine(_folder, "orders.json");

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    /// <summary><c>run</c>: clear, generate, schedule and watch one burst.</summary>
    public Task<OrderLoadResult> BurstAsync(int count, int seed, double invalidRate = 0, int timeoutSeconds = 180) =>
        RunAsync("run", "--count", Text(count), "--seed", Text(seed), "--invalid-rate", invalidRate.ToString(CultureInfo.InvariantCulture),
            "--model", trio.Model.ToString().ToLowerInvariant(), "--pubsub-mode", trio.Mode, "--timeout", Text(timeoutSeconds),
            "--poll", "200", "--max-poll", "1000",
            "--sidecar", trio.DistributorSidecar.HttpEndpoint.ToString(), "--sidecar-grpc", trio.DistributorSidecar.GrpcEndpoint.ToString());

    /// <summary>Any command, with the trio's storage and this instance's files.</summary>
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
        string[] files =
        [
            "--storage", trio.Parts.StorageConnectionString, "--orders", OrdersFile,
            "--state", Path.Combine(_folder, "schedule.json"), "--results", Path.Combine(_folder, "LOG.md"),
        ];
        var exitCode = await LoadToolCommands.InvokeAsync(console, output, [.. args, .. files]);
        return new OrderLoadResult(exitCode, output.ToString());
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
