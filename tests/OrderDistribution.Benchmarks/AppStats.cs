using System.Diagnostics;
using System.Globalization;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// What an app's process has cost since it started: as <see cref="AppProcess"/> reads it from the process itself.
/// </summary>
public sealed record AppStats(TimeSpan Cpu, long Allocated, long MethodsCompiled, TimeSpan JitTime, long PeakWorkingSet,
    int LogLines)
{
    private const string Prefix = "stats ";

    /// <summary>This process's figures now; <paramref name="logLines"/> are the lines its apps printed.</summary>
    public static AppStats OfThisProcess(int logLines)
    {
        using var process = Process.GetCurrentProcess();
        return new AppStats(
            process.TotalProcessorTime,
            GC.GetTotalAllocatedBytes(precise: true),
            System.Runtime.JitInfo.GetCompiledMethodCount(),
            System.Runtime.JitInfo.GetCompilationTime(),
            process.PeakWorkingSet64,
            logLines);
    }

    public static AppStats operator -(AppStats after, AppStats before) => new(
        after.Cpu - before.Cpu,
        after.Allocated - before.Allocated,
        after.MethodsCompiled - before.MethodsCompiled,
        after.JitTime - before.JitTime,
        after.PeakWorkingSet,
        after.LogLines - before.LogLines);

    public string ToLine() => string.Create(CultureInfo.InvariantCulture,
        $"{Prefix}{Cpu.Ticks} {Allocated} {MethodsCompiled} {JitTime.Ticks} {PeakWorkingSet} {LogLines}");

    public static bool TryParse(string line, out AppStats stats)
    {
        stats = null!;
        if (!line.StartsWith(Prefix, StringComparison.Ordinal))
        {
            return false;
        }

        var f = line[Prefix.Length..].Split(' ').Select(v => long.Parse(v, CultureInfo.InvariantCulture)).ToArray();
        stats = new AppStats(TimeSpan.FromTicks(f[0]), f[1], f[2], TimeSpan.FromTicks(f[3]), f[4], (int)f[5]);
        return true;
    }
}
