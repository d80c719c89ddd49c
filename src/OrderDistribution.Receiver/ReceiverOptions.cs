using OrderDistribution.Contracts;

namespace OrderDistribution.Receiver;

/// <summary>
/// Which receiver this is and what it reads and writes. Section <c>Receiver</c>; the instance also comes
/// from the <c>INSTANCE</c> variable, and the queue, binding and container names follow from it unless set.
/// </summary>
public sealed class ReceiverOptions
{
    public const string Section = "Receiver";

    public string Instance { get; set; } = "";

    public string? Topic { get; set; }

    public string? InputBinding { get; set; }

    public string? Container { get; set; }

    /// <summary>
    /// How many blob writes the process runs at once, over all deliveries: single mode runs hundreds of
    /// deliveries at once, and a bound per delivery would multiply by them. A delivery waits for a slot.
    /// </summary>
    public int MaxConcurrentWrites { get; set; } = 64;

    public string TopicName => Topic ?? OrderTopology.QueueOf(Instance);

    public string InputBindingName => InputBinding ?? OrderTopology.InputBindingOf(Instance);

    public string ContainerName => Container ?? OrderTopology.OutboxOf(Instance);
}
