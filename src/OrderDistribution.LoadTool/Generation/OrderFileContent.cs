using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>The orders file's format 2, as read: null where the file lacks a part.</summary>
internal sealed record OrderFileContent(int? Format, List<Order>? Orders, List<PoisonOrder>? Poison);
