using Microsoft.Extensions.Options;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// The largest order that can ever be sent on: no larger than the broker's largest message
/// (<see cref="MessagingOptions.MaxMessageBytes"/>), and one request to the sidecar, with its envelope, no larger than
/// the sidecar takes (<see cref="SidecarOptions.MaxRequestBodySizeMb"/>). An order over it is refused the same way on
/// every try, so it is dropped before any call instead of being retried forever.
/// </summary>
public sealed class OrderSizeLimit(IOptions<MessagingOptions> messaging, SidecarOptions sidecar)
{
    /// <summary>
    /// Room in one request for what surrounds the payload: the call's framing, names, metadata, JSON escaping.
    /// </summary>
    public const int RequestEnvelopeBytes = 16 * 1024;

    public long MaxOrderBytes =>
        Math.Min(messaging.Value.MaxMessageBytes, sidecar.MaxRequestBodyBytes - RequestEnvelopeBytes);

    /// <returns>Why a payload of this size can never be sent; null when it can.</returns>
    public string? RefusalOf(int payloadBytes) =>
        payloadBytes <= MaxOrderBytes ? null
        : payloadBytes > sidecar.MaxRequestBodyBytes - RequestEnvelopeBytes
            ? $"{payloadBytes} bytes, more than the sidecar takes in one request " +
              $"({sidecar.MaxRequestBodySizeMb} MiB, Dapr:MaxRequestBodySizeMb); dropped without calling it"
            : $"{payloadBytes} bytes, more than the broker's largest message " +
              $"({messaging.Value.MaxMessageBytes} bytes, Messaging:MaxMessageBytes); " +
              "dropped without calling the sidecar";
}
