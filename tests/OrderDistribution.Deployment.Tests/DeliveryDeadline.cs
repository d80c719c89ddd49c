using System.Globalization;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Messaging:DeliveryDeadline, the longest time the apps take to answer one delivery
/// (decisions.md: TimeSpan, default 10 s). Read from the apps' appsettings.json when they set it,
/// else from the default in MessagingOptions.cs, else the contract's 10 s.
/// </summary>
internal static partial class DeliveryDeadline
{
    public const string OptionsFile = "src/OrderDistribution.Shared/Dapr/MessagingOptions.cs";

    /// <summary>The contract's default, used only while the apps do not declare one yet.</summary>
    public static readonly TimeSpan ContractDefault = TimeSpan.FromSeconds(10);

    /// <summary>The longest deadline any app may run with (settings of both apps, or the code default).</summary>
    public static TimeSpan Longest()
    {
        var configured = new[] { Contract.DistributorSettings, Contract.ReceiverSettings }
            .Select(file => AppSettings.Load(file)["Messaging:DeliveryDeadline"])
            .Where(value => value is not null)
            .Select(value => TimeSpan.Parse(value!, CultureInfo.InvariantCulture))
            .ToList();
        return configured.Count > 0 ? configured.Max() : CodeDefault() ?? ContractDefault;
    }

    /// <summary>The property initializer in MessagingOptions.cs, when it is written in one of the usual forms.</summary>
    public static TimeSpan? CodeDefault()
    {
        if (!Repo.Exists(OptionsFile))
        {
            return null;
        }

        var match = Initializer().Match(Repo.Read(OptionsFile));
        if (!match.Success)
        {
            return null;
        }

        var value = match.Groups["value"].Value;
        var from = FromCall().Match(value);
        if (from.Success)
        {
            var amount = double.Parse(from.Groups[2].Value.Replace("_", "", StringComparison.Ordinal), CultureInfo.InvariantCulture);
            return from.Groups[1].Value switch
            {
                "Milliseconds" => TimeSpan.FromMilliseconds(amount),
                "Seconds" => TimeSpan.FromSeconds(amount),
                _ => TimeSpan.FromMinutes(amount),
            };
        }

        var parse = ParseCall().Match(value);
        return parse.Success ? TimeSpan.Parse(parse.Groups[1].Value, CultureInfo.InvariantCulture) : null;
    }

    [GeneratedRegex(@"TimeSpan\s+DeliveryDeadline\s*\{[^}]*\}\s*=\s*(?<value>[^;]+);")]
    private static partial Regex Initializer();

    [GeneratedRegex(@"TimeSpan\.From(Milliseconds|Seconds|Minutes)\(\s*([\d_.]+)\s*\)")]
    private static partial Regex FromCall();

    [GeneratedRegex("TimeSpan\\.Parse\\(\\s*\"([^\"]+)\"")]
    private static partial Regex ParseCall();
}
