using OrderDistribution.Contracts;

namespace OrderDistribution.Receiver;

/// <summary>Keeps an order. Saving the same order again leaves one copy.</summary>
public interface IOrderStore
{
    Task SaveAsync(Order order, CancellationToken cancellationToken);
}
