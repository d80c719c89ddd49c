using System.Globalization;
using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.Reporting;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh against a deployed environment's stand-ins: az answering what Azure would, dapr (which
/// records the load tool's arguments and writes the schedule record and the burst's result the load tool would) and
/// dotnet (order-load built beside the tests, for what the script asks it about the burst).
/// </summary>
internal static partial class AzureBurstRun
{
    /// <summary>An azd environment on pubsub-bulk whose apps and component run just that (tiered compilation off, as
    /// the images are built), with empty queues and <paramref name="replicas"/> replicas per app, each ready for a
    /// burst; the <paramref name="specific"/> answers
    /// come first (the fake answers with the first that matches). The load tool's stand-in records 9 of 10 orders
    /// stored in 41.2 s, Application Insights holds the same, and Log Analytics 30 items of telemetry.</summary>
    public static FakeAzure Deployed(double skewSeconds = 0.4, Action<FakeAzure>? specific = null, int replicas = 1,
        bool extensionsInstalled = true)
    {
        var azure = new FakeAzure(extensionsInstalled)
            .SetAzdValue("AZURE_CONTAINER_APPS_ENVIRONMENT_NAME", "cae-fake")
            .SetAzdValue("MESSAGING_MODEL", "pubsub-bulk")
            .SetAzdValue("LOG_ANALYTICS_WORKSPACE_ID", "ws-fake");
        // Answers about readiness (scripts/wait-ready.sh) first: a specific one given for them wins.
        specific?.Invoke(azure);
        WaitReadyTests.Ready(azure);
        azure.Respond("length(@)", replicas.ToString(CultureInfo.InvariantCulture));
        foreach (var app in Contract.AppIds)
        {
            azure.Respond($"--name {app} --query properties.latestRevisionName", $"{app}--r1");
        }

        azure.Respond("app-insights query", "41.5 9 2026-11-20T10:01:11.500Z")
            .Respond("Messaging__Model", "pubsub-bulk")
            .Respond("DOTNET_TieredCompilation", "0")
            .Respond("dapr-component show", "distributor receiver-express receiver-standard")
            .Respond("activeMessageCount", "0\t0")
            .Respond("[].[Table, Items, BilledBytes]", "AppRequests\t20\t16000\nAppEvents\t10\t6000");
        var record = System.Text.Json.JsonSerializer.Serialize(new
        {
            ScheduledAt = new DateTimeOffset(2026, 11, 20, 10, 0, 30, TimeSpan.Zero),
            Model = "pubsub-bulk",
            Count = 10,
            OrdersFile = "orders.json",
            ClockSkewSeconds = skewSeconds,
        });
        // The load tool's result of the burst, as run writes it.
        var result = ResultsFile.Line(new BurstResult("pubsub-bulk", 300_001, BurstStart.Cold, 10, 1, 41.2,
            new DateTimeOffset(2026, 11, 20, 10, 0, 30, TimeSpan.Zero), null, null, [4, 5])).Replace(
            "\"cold\"", "\"START\"", StringComparison.Ordinal);
        azure.WithLoadTool()
            .WithProgram("dapr", $$"""
                #!/bin/sh
                printf '%s\n' "$*" > '{{LoadToolCall(azure)}}'
                start=cold
                for arg in "$@"; do
                  if [ "$given" = --start ]; then start="$arg"; fi
                  given="$arg"
                done
                while [ $# -gt 0 ]; do
                  if [ "$1" = --state ]; then printf '%s' '{{record}}' > "$2"; fi
                  if [ "$1" = --results ]; then
                    mkdir -p "$(dirname "$2")"
                    printf '%s\n' '{{result}}' | sed "s/START/$start/" >> "$2"
                  fi
                  shift
                done
                """);
        return azure;
    }

    public static string LoadToolCall(FakeAzure azure) => Path.Combine(azure.Folder, "load-tool-call.txt");

    /// <summary>The environment's results: the history of its bursts.</summary>
    public static string Results(FakeAzure azure) => Path.Combine(azure.Folder, "azure-fake", "LOG.jsonl");

    /// <summary>What the script kept of the environment's last burst.</summary>
    public static BurstResult LastResult(FakeAzure azure) =>
        ResultsFile.ReadAsync(Results(azure), CancellationToken.None).GetAwaiter().GetResult()[^1];

    public static (int ExitCode, string Output) Burst(FakeAzure azure, params string[] arguments) =>
        BurstWith(azure, [], arguments);

    /// <summary>The burst script with <paramref name="environment"/> ("NAME=value") set for it.</summary>
    public static (int ExitCode, string Output) BurstWith(
        FakeAzure azure, string[] environment, params string[] arguments) =>
        azure.Run("env",
            ["AZURE_BURST_RESULTS=" + azure.Folder, .. environment, "bash", "scripts/azure-burst.sh", "--count", "10",
            "--drain-timeout", "0", .. arguments]);

    /// <summary>The query window and instant the script prints with the queries for the burst.</summary>
    [GeneratedRegex(@"query-kql\.sh --start (?<start>\S+) --end (?<end>\S+) --scheduled-at (?<scheduled>\S+) ")]
    public static partial Regex WindowRegex();
}
