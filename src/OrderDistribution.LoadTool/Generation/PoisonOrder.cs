namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// An invalid order mixed into the burst on purpose. The apps must drop it; it never becomes a blob, and the
/// load tool never counts it as missing. <paramref name="Id"/> is its place in the burst's id sequence and its
/// entry id when published.
/// </summary>
public sealed record PoisonOrder(long Id, PoisonKind Kind, string ContentType, string Payload);
