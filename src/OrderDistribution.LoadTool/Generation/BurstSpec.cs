namespace OrderDistribution.LoadTool.Generation;

/// <summary>The burst to generate: how many orders, the share that is poison, and the seed that repeats it.</summary>
public sealed record BurstSpec(int Count, double InvalidRate, int? Seed)
{
    /// <summary>Checks, without making them, that the burst holds a valid order.</summary>
    /// <exception cref="ArgumentException">The invalid rate leaves no valid order.</exception>
    public void EnsureValidOrders()
    {
        if (OrderGenerator.ValidCount(Count, InvalidRate) == 0)
        {
            throw new ArgumentException($"--invalid-rate {InvalidRate} leaves no valid order of {Count}.");
        }
    }

    public OrderSet Generate(BurstId burst) => OrderGenerator.Generate(Count, InvalidRate, Seed, burst);
}
