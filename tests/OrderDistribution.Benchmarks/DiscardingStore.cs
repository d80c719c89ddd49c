using OrderDistribution.Contracts;
using OrderDistribution.Receiver;

namespace OrderDistribution.Benchmarks;

/// <summary>A receiver's store that keeps nothing: what a delivery costs the receiver beside the upload.</summary>
internal sealed class DiscardingStore : IOrderStore
{
    public Task SaveAsync(Order order, CancellationToken cancellationToken) => Task.CompletedTask;
}
