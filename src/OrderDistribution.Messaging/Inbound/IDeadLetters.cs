using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Where an app keeps a message it refuses for good (<see cref="OrderTopology.DeadLetterQueue"/>): the entry is
/// answered SUCCESS (200 for a binding) only once it is kept, else RETRY (503), so that no refused message is
/// acknowledged before a person can read it.
/// </summary>
public interface IDeadLetters
{
    /// <returns>Whether the sidecar confirmed it; when not, <paramref name="progress"/> is told why.</returns>
    Task<bool> KeepAsync(
        DeadLetter letter, MessagingModel model, IOrderProgress progress, CancellationToken cancellationToken);
}
