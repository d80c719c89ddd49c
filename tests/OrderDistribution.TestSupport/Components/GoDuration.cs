using System.Globalization;
using System.Text.RegularExpressions;

namespace OrderDistribution.TestSupport.Components;

/// <summary>
/// Go duration strings as Dapr reads them ("20s", "1m30s", "500ms"); a bare number is milliseconds, as pubsub.redis
/// reads it.
/// </summary>
public static partial class GoDuration
{
    public static TimeSpan Parse(string? value)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            throw new FormatException("the duration is missing");
        }

        if (long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var milliseconds))
        {
            return TimeSpan.FromMilliseconds(milliseconds);
        }

        var parts = Part().Matches(value);
        if (parts.Count == 0 || string.Concat(parts.Select(p => p.Value)) != value)
        {
            throw new FormatException($"'{value}' is not a Go duration");
        }

        return parts.Aggregate(TimeSpan.Zero, (sum, part) =>
        {
            var amount = double.Parse(part.Groups[1].Value, CultureInfo.InvariantCulture);
            return sum + part.Groups[2].Value switch
            {
                "ms" => TimeSpan.FromMilliseconds(amount),
                "s" => TimeSpan.FromSeconds(amount),
                "m" => TimeSpan.FromMinutes(amount),
                _ => TimeSpan.FromHours(amount),
            };
        });
    }

    [GeneratedRegex(@"(\d+(?:\.\d+)?)(ms|s|m|h)")]
    private static partial Regex Part();
}
