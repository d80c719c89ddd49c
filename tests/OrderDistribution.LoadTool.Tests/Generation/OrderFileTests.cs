using System.Text;
using OrderDistribution.LoadTool.Generation;

namespace OrderDistribution.LoadTool.Tests.Generation;

/// <summary>The orders file read as a stream, a value at a time.</summary>
public sealed class OrderFileTests
{
    [Fact]
    public async Task A_file_with_a_bom_names_in_any_case_an_unknown_part_and_a_value_larger_than_a_read_reads_back()
    {
        var orders = OrderGenerator.Generate(2_000, seed: 5);
        var burst = BurstId.Of(orders[0].OrderId);
        var poison = new PoisonOrder(burst.FirstOrderId + 3_000, PoisonKind.NotJson, "text/plain",
            new string('x', 300_000));
        using var written = new MemoryStream();
        await OrderFile.WriteAsync(written, new OrderSet(orders, [poison], burst), default);
        var text = Encoding.UTF8.GetString(written.ToArray())
            .Replace("\"Orders\":", "\"Extra\":{\"a\":[1,{\"b\":null}]},\"orders\":", StringComparison.Ordinal)
            .Replace("\"Format\":", "\"FORMAT\":", StringComparison.Ordinal);
        using var file = new MemoryStream([.. Encoding.UTF8.Preamble, .. Encoding.UTF8.GetBytes(text)]);

        var set = await OrderFile.ReadSetAsync(file, default);

        Assert.Equal(burst, set.Burst);
        Assert.Equal(orders.Select(TestSupport.TestOrders.Json), set.Orders.Select(TestSupport.TestOrders.Json));
        Assert.Equal(poison, Assert.Single(set.Poison));
    }
}
