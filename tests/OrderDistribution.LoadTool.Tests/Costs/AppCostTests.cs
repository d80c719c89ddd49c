using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.Tests.Costs;

/// <summary>
/// What an app cost in an Azure burst, from its replica metrics at one-minute grain and its allocated size.
/// </summary>
public sealed class AppCostTests
{
    private static readonly ContainerAppsPrices Prices = new(0.000024, 0.000003, "USD");

    [Fact]
    public void Each_replica_minute_adds_its_average_cores_for_sixty_seconds_and_is_billed_at_the_allocated_size()
    {
        // 0.25 and 0.05 cores on average, 150 and 170 MiB at most.
        var cost = AppCost.Of("distributor", AllocatedSize.Parse("0.5", "1Gi")!,
            [250_000_000, 50_000_000], [157_286_400, 178_257_920], Prices);

        // 0.3 cores x 60 s = 18 CPU-s; 120 replica-seconds x (0.5 vCPU x 0.000024 + 1 GiB x 0.000003) USD.
        Assert.Equal(
            "cost, distributor: 18.00 CPU-s used, peak 170 MiB; 2 replica-minutes of 0.5 vCPU and 1Gi allocated: " +
            "0.001800 USD", cost.Line("USD"));
        Assert.Equal((18.0, 170L, 0.0018), (cost.CpuSeconds, cost.PeakMib, cost.Cost));
    }

    [Fact]
    public void An_app_with_no_replica_minute_in_the_window_used_and_cost_nothing()
    {
        var cost = AppCost.Of("receiver-express", AllocatedSize.Parse("1", "2Gi")!, [], [], Prices);

        Assert.Equal(
            "cost, receiver-express: 0.00 CPU-s used, peak 0 MiB; 0 replica-minutes of 1 vCPU and 2Gi allocated: " +
            "0.000000 USD", cost.Line("USD"));
    }

    [Fact]
    public void An_apps_cost_is_kept_as_its_line_prints_it_so_that_a_total_adds_what_the_lines_say()
    {
        // 0.30004 cores over a minute (18.0024 CPU-s), at a size whose minute costs 0.0009000144 USD.
        var cost = AppCost.Of("distributor", AllocatedSize.Parse("0.5", "1.00008Gi")!, [300_040_000], [0], Prices);

        Assert.Equal((18.0, 0.0009), (cost.CpuSeconds, cost.Cost));
    }

    [Theory]
    [InlineData("0.5", "1Gi", 0.5, 1.0)]
    [InlineData("1.75", "3.5Gi", 1.75, 3.5)]
    public void An_allocated_size_is_read_as_azure_states_it(string cpu, string memory, double vcpus, double gibs)
    {
        var size = AllocatedSize.Parse(cpu, memory);

        Assert.Equal(new AllocatedSize(cpu, memory, vcpus, gibs), size);
    }

    [Theory]
    [InlineData("0.5", "1G")]
    [InlineData("0.5", "512Mi")]
    [InlineData("0.5", "Gi")]
    [InlineData("half", "1Gi")]
    [InlineData("", "1Gi")]
    public void A_size_that_is_not_a_vcpu_count_and_a_memory_in_gi_is_no_size(string cpu, string memory) =>
        Assert.Null(AllocatedSize.Parse(cpu, memory));
}
