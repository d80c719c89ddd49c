using System.Globalization;
using Azure.Messaging.ServiceBus;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.DeadLetters;

/// <summary>
/// The dead-letter queue in Azure: the Service Bus queue <see cref="OrderTopology.DeadLetterQueue"/>, each message the
/// letter's JSON as the apps send it (a raw-payload publish, or a call of the output binding). Listed by peeking, which
/// takes nothing off and counts no delivery; a letter's id is its sequence number.
/// </summary>
/// <remarks>
/// Service Bus completes only a message received under a lock, and receives a queue's messages oldest first: to
/// resubmit one, the letters before it are received too and abandoned, one delivery each against the queue's
/// <c>maxDeliveryCount</c> (after which Service Bus moves a letter to the queue's own <c>$DeadLetterQueue</c>: kept).
/// </remarks>
public sealed class ServiceBusDeadLetters(ServiceBusClient client) : IKeptDeadLetters
{
    private const int Batch = 100;

    /// <summary>How long one receive waits for the next letter before the letter sought counts as gone.</summary>
    private static readonly TimeSpan ReceiveWait = TimeSpan.FromSeconds(5);

    public async Task<IReadOnlyList<(string Id, DeadLetter? Letter)>> ListAsync(CancellationToken cancellationToken)
    {
        await using var receiver = client.CreateReceiver(OrderTopology.DeadLetterQueue);
        var listed = new List<(string Id, DeadLetter? Letter)>();
        long? next = null;
        while (await receiver.PeekMessagesAsync(Batch, next, cancellationToken) is { Count: > 0 } page)
        {
            listed.AddRange(page.Select(Listed));
            next = page[^1].SequenceNumber + 1;
        }

        return listed;
    }

    /// <summary>
    /// Sends the letter's body to the ingress queue, then completes the letter: a failure in between leaves it on the
    /// dead-letter queue (resubmitted twice at worst, never lost).
    /// </summary>
    public async Task<DeadLetter?> ResubmitAsync(string id, CancellationToken cancellationToken)
    {
        if (!long.TryParse(id, NumberStyles.None, CultureInfo.InvariantCulture, out var sequenceNumber))
        {
            return null;
        }

        await using var receiver = client.CreateReceiver(OrderTopology.DeadLetterQueue);
        if (await receiver.PeekMessageAsync(sequenceNumber, cancellationToken) is not { } peeked
            || peeked.SequenceNumber != sequenceNumber
            || Listed(peeked).Letter is not { OmittedChars: 0 })
        {
            return null;
        }

        var held = new List<ServiceBusReceivedMessage>();
        try
        {
            while (await receiver.ReceiveMessagesAsync(Batch, ReceiveWait, cancellationToken) is
                { Count: > 0 } received)
            {
                held.AddRange(received);
                if (received.FirstOrDefault(m => m.SequenceNumber == sequenceNumber) is { } found)
                {
                    var letter = Listed(found).Letter!;
                    await using var sender = client.CreateSender(OrderTopology.IngressQueue);
                    await sender.SendMessageAsync(Resubmission(letter), cancellationToken);
                    await receiver.CompleteMessageAsync(found, cancellationToken);
                    held.Remove(found);
                    return letter;
                }

                if (received[^1].SequenceNumber > sequenceNumber)
                {
                    return null;
                }
            }

            return null;
        }
        finally
        {
            foreach (var message in held)
            {
                await receiver.AbandonMessageAsync(message, cancellationToken: CancellationToken.None);
            }
        }
    }

    /// <summary>A message of the queue as listed: its sequence number, and the letter it holds.</summary>
    public static (string Id, DeadLetter? Letter) Listed(ServiceBusReceivedMessage message) =>
        (message.SequenceNumber.ToString(CultureInfo.InvariantCulture), DeadLetter.Read(message.Body.ToMemory().Span));

    /// <summary>The letter's body as the ingress queue's publisher sends an order: the body as it is, JSON.</summary>
    public static ServiceBusMessage Resubmission(DeadLetter letter) =>
        new(letter.BodyBytes()) { ContentType = "application/json" };
}
