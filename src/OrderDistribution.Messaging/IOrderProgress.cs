namespace OrderDistribution.Messaging;

/// <summary>
/// Where what became of each order is marked, by its entry id: the request answers each entry from it.
/// </summary>
public interface IOrderProgress
{
    /// <summary>Done for certain: published, or stored.</summary>
    void MarkDone(string entryId);

    /// <summary>Not done now: answered RETRY. <paramref name="reason"/> names the order.</summary>
    void MarkFailed(string entryId, string reason);

    /// <summary>
    /// Wrong for good (refused the same way every time): answered DROP. <paramref name="reason"/> names the order.
    /// </summary>
    void MarkDropped(string entryId, string reason);
}
