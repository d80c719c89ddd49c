using Dapr.AspNetCore;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// The answer to a single (non-bulk) pub/sub request, <c>{"status":"SUCCESS|RETRY|DROP"}</c>; the SDK has a type
/// for the bulk answer only.
/// </summary>
public sealed record SingleRequestAnswer(string Status)
{
    public SingleRequestAnswer(BulkSubscribeAppResponseStatus status)
        : this(status.ToString())
    {
    }
}
