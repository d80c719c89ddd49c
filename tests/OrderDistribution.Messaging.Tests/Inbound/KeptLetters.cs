using System.Collections.Concurrent;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The dead-letter queue of a host without a sidecar: keeps every letter, or, while <see cref="Refusing"/>, none (the
/// sidecar could not take it now).
/// </summary>
public sealed class KeptLetters : IDeadLetters
{
    public ConcurrentQueue<(DeadLetter Letter, MessagingModel Model)> Letters { get; } = new();

    public bool Refusing { get; set; }

    public Task<bool> KeepAsync(
        DeadLetter letter, MessagingModel model, IOrderProgress progress, CancellationToken cancellationToken)
    {
        if (Refusing)
        {
            progress.MarkFailed(letter.EntryId, "the dead-letter queue is down");
            return Task.FromResult(false);
        }

        Letters.Enqueue((letter, model));
        return Task.FromResult(true);
    }

    /// <summary>
    /// The letters an app kept through the recording emulator: the entries of its bulk publishes, its single publishes
    /// to the dead-letter topic, and its calls of the dead-letter output binding.
    /// </summary>
    public static IReadOnlyList<DeadLetter> At(EmulatedSidecar sidecar) =>
    [
        .. sidecar.Requests
            .Where(r => r.Path.EndsWith($"/{OrderTopology.DeadLetterQueue}", StringComparison.Ordinal))
            .SelectMany(r => r.Path.Contains("/publish/bulk/", StringComparison.Ordinal)
                ? r.Json.EnumerateArray().Select(e => CloudEventDecoder.PayloadOf(e.GetProperty("event")))
                : [r.Body])
            .Select(body => DeadLetter.Read(body)!),
        .. sidecar.BindingMessages.Where(m => m.Binding == OrderTopology.DeadLetterOutputBinding)
            .Select(m => DeadLetter.Read(m.Data)!),
    ];
}
