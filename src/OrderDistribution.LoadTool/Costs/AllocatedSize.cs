using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// A container app's allocated size as Azure states it (<c>resources.cpu</c> "0.5", <c>resources.memory</c> "1Gi"),
/// kept as written for the report: what Container Apps bills each running replica for, whatever it uses.
/// </summary>
public sealed record AllocatedSize(string Cpu, string Memory, double Vcpus, double Gibs)
{
    /// <summary>The size, or null when <paramref name="cpu"/> is not a number or <paramref name="memory"/> not
    /// "&lt;n&gt;Gi".</summary>
    public static AllocatedSize? Parse(string cpu, string memory) =>
        VcpusIn(cpu) is { } vcpus && GibsIn(memory) is { } gibs ? new AllocatedSize(cpu, memory, vcpus, gibs) : null;

    /// <summary>The vCPUs in "0.5"; null when it is not a number.</summary>
    public static double? VcpusIn(string cpu) => NonNegative(cpu);

    /// <summary>The GiB in "1Gi"; null when it is not "&lt;n&gt;Gi".</summary>
    public static double? GibsIn(string memory) =>
        memory.EndsWith("Gi", StringComparison.Ordinal) ? NonNegative(memory[..^2]) : null;

    /// <summary>What one replica of this size costs per second it runs.</summary>
    public double PerSecond(ContainerAppsPrices prices) => Vcpus * prices.VcpuSecond + Gibs * prices.GibSecond;

    private static double? NonNegative(string text) =>
        double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
            ? value
            : null;
}
