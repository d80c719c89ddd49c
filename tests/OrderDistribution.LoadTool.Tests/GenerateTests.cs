using OrderDistribution.Orders;

namespace OrderDistribution.LoadTool.Tests;

public sealed class GenerateTests
{
    [Fact]
    public void The_same_seed_generates_the_same_orders()
    {
        var first = OrderGenerator.Generate(200, seed: 7).Select(TestSupport.TestOrders.Json);
        var second = OrderGenerator.Generate(200, seed: 7).Select(TestSupport.TestOrders.Json);

        Assert.Equal(first, second);
        Assert.NotEqual(first, OrderGenerator.Generate(200, seed: 8).Select(TestSupport.TestOrders.Json));
    }

    [Fact]
    public void Ten_thousand_orders_are_valid_unique_and_about_half_express()
    {
        var orders = OrderGenerator.Generate(10_000, seed: 1);

        Assert.Equal(10_000, orders.Select(o => o.OrderId).Distinct().Count());
        Assert.All(orders, o => OrderJson.Validate(o));
        Assert.All(orders, o => Assert.False(string.IsNullOrWhiteSpace(o.LastName)));
        Assert.InRange(orders.Count(o => o.Delivery == Delivery.Express), 4_700, 5_300);
    }

    [Fact]
    public async Task Generate_writes_an_orders_file_that_reads_back_whole()
    {
        var path = Path.Combine(Path.GetTempPath(), $"orders-{Guid.NewGuid():N}.json");
        var cli = new Cli();

        var exit = await cli.RunAsync("generate", "--count", "300", "--seed", "3", "--orders", path);

        Assert.Equal(0, exit);
        var orders = await OrderFile.ReadAsync(path, default);
        Assert.Equal(300, orders.Count);
        Assert.Contains("Generated 300 orders", cli.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("generate", "--count", "0")]
    [InlineData("watch", "--orders", "/nonexistent/orders.json", "--scheduled-at", "2026-01-01T00:00:00Z")]
    public async Task Bad_input_exits_2_with_a_message(params string[] args)
    {
        var cli = new Cli();

        Assert.Equal(2, await cli.RunAsync(args));
        Assert.NotEmpty(cli.Output.Trim());
    }
}
