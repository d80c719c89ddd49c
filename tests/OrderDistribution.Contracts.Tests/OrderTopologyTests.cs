namespace OrderDistribution.Contracts.Tests;

/// <summary>The names of the trio's wiring: one receiver instance, queue and outbox per delivery.</summary>
public sealed class OrderTopologyTests
{
    [Fact]
    public void Each_delivery_has_its_own_receiver_instance()
    {
        Assert.Equal(
            ["express", "standard"],
            Enum.GetValues<Delivery>().Select(OrderTopology.InstanceOf));
        Assert.Equal(["express", "standard"], OrderTopology.Instances);
    }

    [Fact]
    public void Each_instance_has_its_own_queue_bindings_and_outbox()
    {
        Assert.Equal(
            ["q-order-express", "q-order-express-input", "q-order-express-output", "express-outbox"],
            [
                OrderTopology.QueueOf("express"), OrderTopology.InputBindingOf("express"),
                OrderTopology.OutputBindingOf("express"), OrderTopology.OutboxOf("express"),
            ]);
        Assert.Equal(["express-outbox", "standard-outbox"], OrderTopology.Outboxes);
    }

    [Fact]
    public void A_delivery_that_is_not_defined_has_no_instance()
    {
        var refusal = Assert.Throws<InvalidOrderException>(() => OrderTopology.InstanceOf((Delivery)0));

        Assert.Contains("delivery", refusal.Message, StringComparison.Ordinal);
    }
}
