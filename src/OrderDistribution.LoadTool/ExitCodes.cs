namespace OrderDistribution.LoadTool;

/// <summary>order-load's exit codes; the README lists them.</summary>
public static class ExitCodes
{
    /// <summary>Every order scheduled, every valid order stored (or the step done).</summary>
    public const int Done = 0;

    /// <summary>Orders not scheduled, or valid orders still missing at the timeout.</summary>
    public const int Incomplete = 1;

    /// <summary>Bad input or configuration, including a trio that runs another model than <c>--model</c>.</summary>
    public const int BadInput = 2;

    /// <summary>Storage or the sidecar could not be reached, or did not answer in time.</summary>
    public const int Unreachable = 3;

    /// <summary>
    /// Anything else: a fault the tool did not foresee (message printed; <c>--verbose</c> for the stack trace).
    /// </summary>
    public const int Unexpected = 4;

    /// <summary>
    /// Refused before anything changed: another burst holds the store (its lease), named with when it started and
    /// where.
    /// </summary>
    public const int StoreBusy = 5;

    /// <summary>
    /// Another burst shared the store with this one (this burst lost its lease, or its watch met another burst's
    /// blobs): no result is printed or recorded.
    /// </summary>
    public const int SharedStore = 6;

    /// <summary>Stopped with Ctrl+C.</summary>
    public const int Cancelled = 130;
}
