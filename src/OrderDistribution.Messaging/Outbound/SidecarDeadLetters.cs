using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Keeps a refused message through the sidecar: a publish to the dead-letter topic of the pub/sub component (raw
/// payload), or in the bindings model a call of the dead-letter output binding; the call goes through the sidecar's
/// resilience pipeline as every order's does. The apps do it themselves rather than answer DROP to a subscription that
/// declares a dead-letter topic: daprd sends there also a valid order whose retries ended with its delivery's context
/// (an outage of storage), and on 1.14 it acknowledges a DROP whose dead-letter publish failed
/// (docs/messaging-models.md,
/// "Dead letters"). A letter larger than any order may be (<see cref="OrderSizeLimit"/>: an order refused for being too
/// large) is cut to fit (<see cref="DeadLetterFit"/>).
/// </summary>
public sealed class SidecarDeadLetters(
    SidecarOrderCall call, ISidecarOutbound sidecar, IOptions<MessagingOptions> messaging, OrderSizeLimit sizeLimit)
    : IDeadLetters
{
    public async Task<bool> KeepAsync(
        DeadLetter letter, MessagingModel model, IOrderProgress progress, CancellationToken cancellationToken)
    {
        var payload = DeadLetterFit.Fitted(letter, sizeLimit.MaxOrderBytes);
        var pubSubName = messaging.Value.PubSubName;
        var maxBulkBytes = messaging.Value.MaxBulkPublishBytes;
        var to = model == MessagingModel.Bindings
            ? OrderTopology.DeadLetterOutputBinding
            : OrderTopology.DeadLetterQueue;
        // The way each model already sends its orders: a binding call, a bulk publish (one too large for a bulk goes
        // alone, as the bulk publisher sends such an order), a single publish.
        Func<CancellationToken, Task> send = model switch
        {
            MessagingModel.Bindings => ct => sidecar.CreateBindingAsync(to, payload, ct),
            MessagingModel.PubSubBulk when payload.Length + OrderSizeLimit.RequestEnvelopeBytes <= maxBulkBytes =>
                ct => BulkPublishAsync(pubSubName, to, letter.EntryId, payload, maxBulkBytes, ct),
            _ => ct => sidecar.PublishAsync(pubSubName, to, payload, "application/json",
                SinglePublishForwarder.RawPayload(), ct),
        };
        try
        {
            var (failure, reason) = await call.CallAsync(to, send, cancellationToken);
            if (failure is null)
            {
                return true;
            }

            progress.MarkFailed(letter.EntryId, $"keeping it on {to} failed ({failure}): {reason}");
        }
        catch (OperationCanceledException)
        {
            progress.MarkFailed(letter.EntryId, $"keeping it on {to} was cut off by the request's deadline");
        }

        return false;
    }

    /// <exception cref="BulkPublishPartlyFailedException">The sidecar named the letter as not published.</exception>
    private async Task BulkPublishAsync(string pubSubName, string to, string entryId, byte[] payload, int maxBulkBytes,
        CancellationToken cancellationToken)
    {
        var failed = await sidecar.BulkPublishAsync(pubSubName, to, [new OutboundMessage(entryId, payload)],
            BulkOrderPublisher.RequestMetadata(maxBulkBytes), cancellationToken);
        if (failed.Count > 0)
        {
            throw new BulkPublishPartlyFailedException(failed);
        }
    }
}
