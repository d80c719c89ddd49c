using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Scheduling;

/// <summary>
/// Scheduling a burst with poison in it: each poison goes out as its own bytes, in order by id among the orders;
/// an orders file that repeats an id publishes nothing.
/// </summary>
public sealed class PoisonSchedulingTests(AzuriteFixture storage) : SchedulingTest(storage)
{
    [Fact]
    public async Task Poison_goes_out_in_the_burst_as_its_own_bytes_so_not_json_reaches_the_sidecar_as_it_is()
    {
        var set = OrderGenerator.Generate(300, 0.05, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(Folder, "orders.json"), set, default);

        var exit = await new Cli().RunAsync(["schedule", "--model", "pubsub-bulk", .. Common()]);

        Assert.Equal(0, exit);
        var events = Sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray())
            .Select(e => e.GetProperty("event")).ToList();
        Assert.Equal(300, events.Count);
        var texts = events.Where(e => e.ValueKind == System.Text.Json.JsonValueKind.String).Select(e => e.GetString()!)
            .ToList();
        Assert.Equal(set.Poison.Where(p => p.Kind == PoisonKind.NotJson).Select(p => p.Payload).Order(), texts.Order());
        var objects = events.Where(e => e.ValueKind == System.Text.Json.JsonValueKind.Object).ToList();
        var valid = objects.Select(Valid).OfType<Order>().Select(o => o.OrderId).ToList();
        Assert.Equal(set.Orders.Select(o => o.OrderId).Order(), valid.Order());
        Assert.Equal(set.Poison.Count(p => p.Kind != PoisonKind.NotJson), objects.Count - valid.Count);

        static Order? Valid(System.Text.Json.JsonElement e)
        {
            try
            {
                return OrderJson.Deserialize(e);
            }
            catch (InvalidOrderException)
            {
                return null;
            }
        }
    }

    [Fact]
    public async Task A_burst_of_several_chunks_goes_out_whole_once_each_with_the_poison_among_the_orders_by_id()
    {
        var set = OrderGenerator.Generate((SidecarScheduler.PublishChunk * 2) + 500, 0.01, seed: 5);
        await OrderFile.WriteAsync(Path.Combine(Folder, "orders.json"), set, default);

        var exit = await new Cli().RunAsync(["schedule", "--model", "pubsub-bulk", .. Common()]);

        Assert.Equal(0, exit);
        var requests = Sidecar.BulkPublishes(OrderTopology.IngressQueue)
            .Select(r => r.Json.EnumerateArray().Select(e => IdOf(e.GetProperty("event"))).ToList()).ToList();
        Assert.All(requests, ids => Assert.Equal(ids.Order(), ids));
        Assert.Equal(set.Orders.Select(o => o.OrderId).Concat(set.Poison.Select(p => p.Id)).Order(),
            requests.SelectMany(ids => ids).Order());

        // Poison that is not JSON at all reads "order <id> for ...".
        static long IdOf(System.Text.Json.JsonElement e) => e.ValueKind == System.Text.Json.JsonValueKind.String
            ? long.Parse(e.GetString()!.Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture)
            : e.GetProperty("OrderId").GetInt64();
    }

    [Fact]
    public async Task An_orders_file_whose_last_order_repeats_an_id_stops_schedule_before_anything_is_published()
    {
        var orders = OrderGenerator.Generate(SidecarScheduler.PublishChunk + 10, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(Folder, "orders.json"), OrderSet.ValidOnly([.. orders, orders[0]]),
            default);
        var cli = new Cli();

        var exit = await cli.RunAsync(["schedule", "--model", "pubsub-bulk", .. Common()]);

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains($"Id {orders[0].OrderId} appears more than once", cli.Output, StringComparison.Ordinal);
        Assert.Empty(Sidecar.BulkPublishes(OrderTopology.IngressQueue));
    }

    [Fact]
    public async Task Bindings_scheduling_hands_the_poison_to_the_binding_too_as_its_own_bytes()
    {
        var set = OrderGenerator.Generate(100, 0.1, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(Folder, "orders.json"), set, default);

        Assert.Equal(0, await new Cli().RunAsync(["schedule", "--model", "bindings", .. Common()]));

        Assert.Equal(100,
            Sidecar.Requests.Count(r => r.Path == $"/v1.0/bindings/{OrderTopology.IngressOutputBinding}"));
        var notJson = set.Poison.Where(p => p.Kind == PoisonKind.NotJson).Select(p => p.Payload).ToHashSet();
        Assert.Equal(notJson, Sidecar.Requests.Select(r => r.Json.GetProperty("data"))
            .Where(d => d.ValueKind == System.Text.Json.JsonValueKind.String).Select(d => d.GetString()!).ToHashSet());
    }
}
