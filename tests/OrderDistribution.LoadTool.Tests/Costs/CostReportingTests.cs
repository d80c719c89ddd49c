using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Costs;

/// <summary>A burst's cost as the Markdown log and the report show it.</summary>
public sealed class CostReportingTests
{
    private static readonly ContainerAppsPrices Prices = new(0.000024, 0.000003, "USD");

    private static BurstCost Cost(double appCpu) => new(
        [
            new ComponentCost("distributor", ComponentRole.App, appCpu, 140),
            new ComponentCost("distributor daprd", ComponentRole.Sidecar, 1.25, 110),
            new ComponentCost("broker", ComponentRole.Broker, 0.65, 30),
            new ComponentCost("store", ComponentRole.Store, 19.8, 400),
        ],
        20, Prices);

    [Fact]
    public void The_markdown_log_shows_the_cost_each_role_was_seen_to_spend_and_none_for_a_role_not_seen()
    {
        var result = new BurstResult("pubsub-bulk", 1, BurstStart.Warm, 10_000, 0, 21.8, DateTimeOffset.UnixEpoch,
            null, null, []);

        Assert.EndsWith($"| 5.26 | 1.25 | 0.65 | 19.80 | 250 | {Cost(5.26).Price:0.000000} |\n",
            ResultsMarkdown.Row(result with { Cost = Cost(5.26) }), StringComparison.Ordinal);
        Assert.EndsWith("| yes |  |  |  |  |  |  |\n", ResultsMarkdown.Row(result), StringComparison.Ordinal);
        var appsAlone = new BurstCost([new ComponentCost("distributor", ComponentRole.App, 2, 100)], 20, null);
        Assert.EndsWith("| 2.00 |  |  |  | 100 |  |\n", ResultsMarkdown.Row(result with { Cost = appsAlone }),
            StringComparison.Ordinal);
        Assert.Equal(7.16, Cost(5.26).TrioCpu!.Value, 2);
    }

    [Fact]
    public void The_price_is_the_apps_and_sidecars_cpu_and_peak_memory_over_the_window_not_the_broker_or_the_store()
    {
        var cost = Cost(5.26);

        Assert.Equal(6.51, cost.VcpuSeconds, 6);
        Assert.Equal(250.0 / 1024 * 20, cost.GibSeconds, 6);
        Assert.Equal((6.51 * 0.000024) + (250.0 / 1024 * 20 * 0.000003), cost.Price!.Value, 12);
        Assert.Equal(7.16, cost.TrioCpuSeconds, 6);
    }

    [Fact]
    public void The_report_shows_each_models_warm_cpu_and_cost_beside_its_time()
    {
        BurstResult Run(string model, double seconds, double appCpu) =>
            new(model, null, BurstStart.Warm, 10_000, 0, seconds, DateTimeOffset.UnixEpoch, null, null, [])
            {
                Cost = Cost(appCpu),
            };

        var report = ComparisonReport.From([Run("pubsub-bulk", 21.8, 5.26), Run("bindings", 38.1, 13.96)]);
        var markdown = report.Markdown("LOG.jsonl", "report.png");

        Assert.True(report.HasCosts);
        Assert.Contains("| warm trio CPU-s | warm store CPU-s | warm peak MiB | warm cost |", markdown,
            StringComparison.Ordinal);
        Assert.Contains("| 7.16 | 19.80 | 250 |", markdown, StringComparison.Ordinal);
        Assert.Contains("| 15.86 | 19.80 | 250 |", markdown, StringComparison.Ordinal);
        Assert.Equal(3 * 460, ComparisonChart.HeightFor(report) + 460);
    }

    [Fact]
    public void Prices_come_from_the_environment_over_the_file_and_the_repositorys_file_gives_both()
    {
        using var folder = new TempFolder("order-load-prices-");
        var file = Path.Combine(folder.Path, "prices.env");
        File.WriteAllLines(file, ["# prices", "ACA_PRICE_VCPU_SECOND=0.5", "ACA_PRICE_GIB_SECOND=\"0.25\""]);

        Assert.Equal(new ContainerAppsPrices(0.5, 0.25, "USD"), ContainerAppsPrices.Load(_ => null, file));
        Assert.Equal(new ContainerAppsPrices(2, 0.25, "USD"),
            ContainerAppsPrices.Load(key => key == "ACA_PRICE_VCPU_SECOND" ? "2" : null, file));
        Assert.Null(ContainerAppsPrices.Load(_ => null, null));
        var repository = ContainerAppsPrices.FindFile(AppContext.BaseDirectory);
        Assert.NotNull(repository);
        Assert.NotNull(ContainerAppsPrices.Load(_ => null, repository));
    }
}
