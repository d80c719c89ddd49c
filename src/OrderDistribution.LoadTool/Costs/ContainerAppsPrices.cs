using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// Container Apps consumption prices: per vCPU-second and per GiB-second of an active replica. Read from the
/// environment (<c>ACA_PRICE_VCPU_SECOND</c>, <c>ACA_PRICE_GIB_SECOND</c>, <c>ACA_PRICE_CURRENCY</c>), else from
/// <c>container-apps-prices.env</c> at the repository's root, the file that names their source and date
/// (docs/benchmark.md, "What a burst costs").
/// </summary>
public sealed record ContainerAppsPrices(double VcpuSecond, double GibSecond, string Currency)
{
    public const string FileName = "container-apps-prices.env";

    /// <summary>The prices, or null when neither the environment nor the file gives both.</summary>
    public static ContainerAppsPrices? Load(Func<string, string?> environment, string? file)
    {
        var setting = Settings(environment, file);
        return Number(setting("ACA_PRICE_VCPU_SECOND")) is { } vcpu
            && Number(setting("ACA_PRICE_GIB_SECOND")) is { } gib
            ? new ContainerAppsPrices(vcpu, gib, setting("ACA_PRICE_CURRENCY") ?? "USD")
            : null;
    }

    /// <summary>The prices this run uses: the environment over the file found above the current folder.</summary>
    public static ContainerAppsPrices? Load() =>
        Load(Environment.GetEnvironmentVariable, FindFile(Directory.GetCurrentDirectory()));

    /// <summary>The file in <paramref name="folder"/> or the nearest folder above it.</summary>
    public static string? FindFile(string folder)
    {
        for (var at = new DirectoryInfo(folder); at is not null; at = at.Parent)
        {
            var path = Path.Combine(at.FullName, FileName);
            if (File.Exists(path))
            {
                return path;
            }
        }

        return null;
    }

    /// <summary>The prices file's settings, each overridden by the environment's when that is set.</summary>
    public static Func<string, string?> Settings(Func<string, string?> environment, string? file)
    {
        var settings = file is not null && File.Exists(file) ? Parse(File.ReadAllLines(file)) : [];
        return key => environment(key) is { Length: > 0 } value ? value : settings.GetValueOrDefault(key);
    }

    /// <returns>A price: a number of at least 0, or null.</returns>
    public static double? Number(string? text) =>
        double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
            && value >= 0 ? value : null;

    /// <summary>KEY=VALUE lines as a shell sources them; comments and blank lines skipped, quotes taken off.</summary>
    private static Dictionary<string, string> Parse(IEnumerable<string> lines) =>
        lines.Select(l => l.Trim())
            .Where(l => l.Length > 0 && !l.StartsWith('#') && l.Contains('='))
            .Select(l => (Key: l[..l.IndexOf('=')].Trim(), Value: l[(l.IndexOf('=') + 1)..].Trim().Trim('"', '\'')))
            .GroupBy(p => p.Key, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Last().Value, StringComparer.Ordinal);
}
