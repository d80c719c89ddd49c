using OrderDistribution.Contracts;
using OrderDistribution.Receiver;

namespace OrderDistribution.TrioHarness;

/// <summary>
/// Fails a share of writes the ways storage does: half of them before anything is written, half after the
/// blob was written (the answer lost on the way back), which the receiver cannot tell apart.
/// </summary>
public sealed class FlakyOrderStore(IOrderStore inner, double failureRate, int seed) : IOrderStore
{
    private readonly Random _random = new(seed);

    public async Task SaveAsync(Order order, CancellationToken cancellationToken)
    {
        double roll;
        lock (_random)
        {
            roll = _random.NextDouble();
        }

        if (roll < failureRate / 2)
        {
            throw new IOException("storage refused the write (injected)");
        }

        await inner.SaveAsync(order, cancellationToken);
        if (roll < failureRate)
        {
            throw new IOException("the write's answer was lost (injected)");
        }
    }
}
