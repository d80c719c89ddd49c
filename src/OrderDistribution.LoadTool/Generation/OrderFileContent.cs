namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// The orders file's format 2, as read: null where the file lacks a part. The orders pass through <see
/// cref="OrderSink"/>.
/// </summary>
internal sealed record OrderFileContent(int? Format, long? Burst, OrderSink? Orders, List<PoisonOrder>? Poison);
