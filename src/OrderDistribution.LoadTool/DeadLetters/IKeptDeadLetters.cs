using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.DeadLetters;

/// <summary>
/// <see cref="OrderTopology.DeadLetterQueue"/> on one broker: its letters listed without taking any off, and one
/// resubmitted (its body put on <see cref="OrderTopology.IngressQueue"/> as the apps' publisher would, then the letter
/// taken off).
/// </summary>
public interface IKeptDeadLetters
{
    /// <returns>Each letter under an id <see cref="ResubmitAsync"/> takes, oldest first; null for a message that is no
    /// dead letter.</returns>
    Task<IReadOnlyList<(string Id, DeadLetter? Letter)>> ListAsync(CancellationToken cancellationToken);

    /// <returns>The letter resubmitted; null when there is no whole dead letter under <paramref name="id"/>.</returns>
    Task<DeadLetter?> ResubmitAsync(string id, CancellationToken cancellationToken);
}
