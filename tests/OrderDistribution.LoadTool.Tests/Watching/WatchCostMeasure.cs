using System.Diagnostics;
using System.Globalization;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// What a piece of work cost this process: CPU time (user and system), bytes allocated, and the managed heap at its
/// end.
/// </summary>
internal static class WatchCostMeasure
{
    public static async Task<(T Result, string Cost)> OfAsync<T>(Func<Task<T>> work)
    {
        var process = Process.GetCurrentProcess();
        var cpu = process.TotalProcessorTime;
        var allocated = GC.GetTotalAllocatedBytes(precise: true);
        var result = await work();
        process.Refresh();
        var cost = string.Create(CultureInfo.InvariantCulture,
            $"{(process.TotalProcessorTime - cpu).TotalSeconds:0.00} CPU-s, " +
            $"{(GC.GetTotalAllocatedBytes(precise: true) - allocated) / 1e6:0} MB allocated, " +
            $"managed heap {GC.GetGCMemoryInfo().HeapSizeBytes / 1e6:0} MB, process peak " +
            $"{process.PeakWorkingSet64 / 1e6:0} MB");
        return (result, cost);
    }
}
