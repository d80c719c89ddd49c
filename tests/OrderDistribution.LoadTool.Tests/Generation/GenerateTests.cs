using System.Globalization;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Generation;

public sealed class GenerateTests : IDisposable
{
    private readonly TempFolder _folder = new("order-load-generate-");

    public void Dispose() => _folder.Dispose();

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
        var path = Path.Combine(_folder.Path, "orders.json");
        var cli = new Cli();

        var exit = await cli.RunAsync("generate", "--count", "300", "--seed", "3", "--orders", path);

        Assert.Equal(0, exit);
        var orders = (await OrderFile.ReadSetAsync(path, default)).Orders;
        Assert.Equal(300, orders.Count);
        Assert.Contains($"Generated burst {BurstId.Of(orders[0].OrderId)}: 300 orders", cli.Output,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task Generate_streams_the_file_the_whole_burst_writes_and_it_reads_back_as_ids_deliveries_and_poison()
    {
        var streamed = Path.Combine(_folder.Path, "streamed.json");
        var whole = Path.Combine(_folder.Path, "whole.json");

        var exit = await new Cli()
            .RunAsync("generate", "--count", "2000", "--seed", "4", "--invalid-rate", "0.02", "--orders", streamed);

        Assert.Equal(0, exit);
        var index = await OrderFile.ReadIndexAsync(streamed, default);
        var set = OrderGenerator.Generate(2_000, 0.02, seed: 4, index.Burst);
        await OrderFile.WriteAsync(whole, set, default);
        Assert.Equal(await File.ReadAllBytesAsync(whole), await File.ReadAllBytesAsync(streamed));
        Assert.Equal(set.Orders.Select(o => (o.OrderId, o.Delivery)).Order(),
            index.DeliveryOf.Select(d => (d.Key, d.Value)).Order());
        Assert.Equal(set.Poison, index.Poison);
        Assert.Equal(set.Orders.Select(o => o.OrderId),
            await OrderFile.ReadOrdersAsync(streamed, default).Select(o => o.OrderId).ToListAsync());
    }

    [Theory]
    [InlineData("generate", "--count", "0")]
    [InlineData("generate", "--invalid-rate", "1")]
    [InlineData("generate", "--invalid-rate", "-0.1")]
    [InlineData("generate", "--no-such-option")]
    [InlineData("watch", "--orders", "/nonexistent/orders.json", "--scheduled-at", "2026-01-01T00:00:00Z")]
    public async Task Bad_input_exits_2_with_a_message(params string[] args)
    {
        var cli = new Cli();

        Assert.Equal(2, await cli.RunAsync(args));
        Assert.NotEmpty(cli.Output.Trim());
    }

    [Fact]
    public void An_invalid_rate_mixes_that_share_of_poison_of_every_kind_evenly_into_the_burst()
    {
        var set = OrderGenerator.Generate(10_000, 0.01, seed: 1);

        Assert.Equal(9_900, set.Orders.Count);
        Assert.Equal(100, set.Poison.Count);
        Assert.Equal(10_000, set.Orders.Select(o => o.OrderId).Concat(set.Poison.Select(p => p.Id)).Distinct().Count());
        Assert.Equal([PoisonKind.UnknownDelivery, PoisonKind.MissingFields, PoisonKind.NotJson],
            set.Poison.Select(p => p.Kind).Distinct().Order());
        Assert.InRange(set.Poison.Min(p => p.Id), OrderGenerator.FirstOrderId, OrderGenerator.FirstOrderId + 200);
        Assert.InRange(set.Poison.Max(p => p.Id), OrderGenerator.FirstOrderId + 9_800,
            OrderGenerator.FirstOrderId + 9_999);
        // Every poison entry is refused by the apps' own order reader; the valid ones are untouched.
        Assert.All(set.Poison,
            p => Assert.ThrowsAny<Exception>(() =>
            OrderJson.Deserialize(System.Text.Encoding.UTF8.GetBytes(p.Payload))));
        Assert.All(set.Poison.Where(p => p.Kind == PoisonKind.NotJson), p => Assert.Equal("text/plain", p.ContentType));
        Assert.Equal(
            OrderGenerator.Generate(10_000, seed: 1).Where(o => set.Orders.Any(v => v.OrderId == o.OrderId))
            .Select(TestSupport.TestOrders.Json),
            set.Orders.Select(TestSupport.TestOrders.Json));
    }

    [Fact]
    public async Task Each_generate_makes_a_burst_of_its_own_named_in_the_file_and_in_every_id()
    {
        var first = Path.Combine(_folder.Path, "first.json");
        var second = Path.Combine(_folder.Path, "second.json");

        Assert.Equal(0,
            await new Cli()
            .RunAsync("generate", "--count", "500", "--invalid-rate", "0.02", "--seed", "3", "--orders", first));
        Assert.Equal(0,
            await new Cli()
            .RunAsync("generate", "--count", "500", "--invalid-rate", "0.02", "--seed", "3", "--orders", second));

        var (a, b) = (await OrderFile.ReadSetAsync(first, default), await OrderFile.ReadSetAsync(second, default));
        Assert.NotEqual(a.Burst, b.Burst);
        Assert.Contains($"\"Burst\":{a.Burst}", await File.ReadAllTextAsync(first), StringComparison.Ordinal);
        foreach (var set in new[] { a, b })
        {
            Assert.All(set.Orders.Select(o => o.OrderId).Concat(set.Poison.Select(p => p.Id)),
                id => Assert.True(set.Burst.Holds(id), $"{id} of burst {set.Burst}"));
            // Six digits that never start with 1: no name of it starts as burst 1's (ids from 1,000,000) do.
            Assert.Matches("^[2-9][0-9]{5}$", set.Burst.Prefix);
        }

        // The same seed makes the same orders; only their ids differ.
        Assert.Equal(a.Orders.Select(o => TestSupport.TestOrders.Json(o with { OrderId = 0 })),
            b.Orders.Select(o => TestSupport.TestOrders.Json(o with { OrderId = 0 })));
    }

    [Theory]
    [InlineData("""{"Format":2,"Burst":483920,"Orders":[ORDER],"Poison":[]}""",
        "Id 1000007 is not of the file's burst 483920")]
    [InlineData("""{"Format":2,"Orders":[ORDER, OTHER],"Poison":[]}""",
        "The orders file holds ids of more than one burst (1000007 and 483920000001)")]
    public async Task An_orders_file_with_an_id_outside_its_burst_is_refused_in_one_line_with_exit_2(string file,
        string message)
    {
        var path = Path.Combine(_folder.Path, "orders.json");
        var order = OrderGenerator.Generate(1, seed: 1)[0] with { OrderId = 1_000_007 };
        await File.WriteAllTextAsync(path, file
            .Replace("ORDER", TestSupport.TestOrders.Json(order), StringComparison.Ordinal)
            .Replace("OTHER", TestSupport.TestOrders.Json(order with { OrderId = 483_920_000_001 }),
                StringComparison.Ordinal));
        var cli = new Cli();

        var exit = await cli.RunAsync("watch", "--orders", path, "--scheduled-at", "2026-01-01T00:00:00Z", "--storage",
            "UseDevelopmentStorage=true");

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(message, line, StringComparison.Ordinal);
    }

    [Fact]
    public void The_default_invalid_rate_generates_no_poison()
    {
        Assert.Empty(OrderGenerator.Generate(1_000, 0, seed: 1).Poison);
    }

    [Fact]
    public async Task Generate_writes_the_poison_into_the_orders_file_and_it_reads_back()
    {
        var path = Path.Combine(_folder.Path, "orders.json");
        var cli = new Cli();

        Assert.Equal(0,
            await cli.RunAsync("generate", "--count", "1000", "--invalid-rate", "0.01", "--seed", "3", "--orders",
            path));

        var set = await OrderFile.ReadSetAsync(path, default);
        Assert.Equal(990, set.Orders.Count);
        Assert.Equal(OrderGenerator.Generate(1_000, 0.01, seed: 3, set.Burst).Poison, set.Poison);
        Assert.Contains($"Generated burst {set.Burst}: 1000 orders", cli.Output, StringComparison.Ordinal);
        Assert.Contains("10 poison", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_share_is_read_with_a_decimal_point_whatever_language_the_machine_speaks()
    {
        var path = Path.Combine(_folder.Path, "orders.json");
        var cli = new Cli();
        // German reads '.' as the thousands separator: 0.05 would be 5, refused as no share.
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE");

        var exit = await cli.RunAsync("generate", "--count", "1000", "--invalid-rate", "0.05", "--orders", path);

        Assert.True(exit == 0, cli.Output);
        Assert.Equal(50, (await OrderFile.ReadSetAsync(path, default)).Poison.Count);
    }

    [Fact]
    public async Task An_orders_file_that_is_a_bare_array_of_orders_is_refused_naming_the_format_to_generate()
    {
        var orders = OrderGenerator.Generate(50, seed: 2);
        var path = Path.Combine(_folder.Path, "orders.json");
        await File.WriteAllBytesAsync(path,
            System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(orders, OrderJsonContext.Default.ListOrder));

        var refused = await Assert.ThrowsAsync<InvalidDataException>(() => OrderFile.ReadSetAsync(path, default));

        Assert.Contains("is not an orders object of format 2: generate it again", refused.Message,
            StringComparison.Ordinal);
    }
}
