using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Tests;

internal static class ReadinessProbeExtensions
{
    public static async Task<bool> IsReadyAsync(this IReadinessProbe probe)
    {
        try
        {
            await probe.CheckAsync(CancellationToken.None);
            return true;
        }
        catch (InvalidOperationException)
        {
            return false;
        }
    }
}
