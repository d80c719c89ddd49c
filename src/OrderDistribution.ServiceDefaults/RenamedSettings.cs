using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Every renamed setting, environment variable and run-local.sh argument, and what replaced it: the table
/// <c>renamed-settings.tsv</c> beside this file, embedded here and read by the scripts, so that each refuses the old
/// name the same way instead of ignoring it.
/// </summary>
public static class RenamedSettings
{
    public const string Setting = "setting";
    public const string Variable = "variable";
    public const string Argument = "argument";

    /// <summary>Every row of the table, in its order.</summary>
    public static IReadOnlyList<Renamed> All { get; } = Read();

    /// <summary>
    /// Stops the app at start while a renamed key of <paramref name="section"/> is still set, naming the new key.
    /// </summary>
    internal static OptionsBuilder<TOptions> RefuseRenamed<TOptions>(this OptionsBuilder<TOptions> builder,
        string section)
        where TOptions : class
    {
        foreach (var row in All.Where(row =>
            row.Kind == Setting && row.Old.StartsWith($"{section}:", StringComparison.Ordinal)))
        {
            builder.Validate<IConfiguration>((_, configuration) => configuration[row.Old] is null, row.Refusal);
        }

        return builder;
    }

    private static List<Renamed> Read()
    {
        using var stream = typeof(RenamedSettings).Assembly.GetManifestResourceStream("renamed-settings.tsv")
            ?? throw new InvalidOperationException("renamed-settings.tsv is not embedded");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd().Split('\n')
            .Select(line => line.TrimEnd('\r'))
            .Where(line => line.Length > 0 && !line.StartsWith('#'))
            .Skip(1) // The header.
            .Select(line => line.Split('\t'))
            .Select(fields => new Renamed(fields[0], fields[1], fields[2],
                fields.ElementAtOrDefault(3) is { Length: > 0 } values ? values : null))
            .ToList();
    }
}

/// <summary>
/// One row of <see cref="RenamedSettings"/>: <paramref name="Old"/> is refused, naming <paramref name="New"/>.
/// </summary>
/// <param name="Values">What the new one takes, when the refusal should say it.</param>
public sealed record Renamed(string Kind, string Old, string New, string? Values)
{
    /// <summary>The one line that refuses it.</summary>
    public string Refusal => $"{Old} is no longer read: set {New}{(Values is null ? "" : $" ({Values})")} instead.";
}
