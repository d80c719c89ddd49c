using System.Globalization;
using System.Text.RegularExpressions;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.Deployment.Tests;

/// <summary>A Dapr Resiliency spec (kind: Resiliency) from a local components folder.</summary>
internal sealed record DaprResiliency(
    string File,
    string ApiVersion,
    IReadOnlyList<string> Scopes,
    IReadOnlyDictionary<string, string> Timeouts,
    IReadOnlyDictionary<string, DaprResiliency.Retry> Retries,
    IReadOnlyCollection<string> CircuitBreakers,
    IReadOnlyDictionary<string, DaprResiliency.Inbound> InboundByComponent)
{
    public static IReadOnlyList<DaprResiliency> LoadFolder(string folder)
    {
        var specs = new List<DaprResiliency>();
        foreach (var file in Directory.EnumerateFiles(Repo.PathOf(folder), "*.yaml").Order(StringComparer.Ordinal))
        {
            var root = Yaml.LoadMapping(System.IO.File.ReadAllText(file));
            if (root.Scalar("kind") != "Resiliency")
            {
                continue;
            }

            var policies = root.Mapping("spec")?.Mapping("policies") ?? new YamlMappingNode();
            var retries = (policies.Mapping("retries") ?? new YamlMappingNode()).Children.ToDictionary(
                kv => ((YamlScalarNode)kv.Key).Value ?? "",
                kv =>
                {
                    var retry = (YamlMappingNode)kv.Value;
                    return new Retry(
                        retry.Scalar("policy") ?? "constant",
                        retry.Scalar("duration"),
                        retry.Scalar("maxRetries"),
                        retry.Mapping("matching")?.Scalar("httpStatusCodes"));
                });
            var components = root.Mapping("spec")?.Mapping("targets")?.Mapping("components") ?? new YamlMappingNode();
            var inbound = components.Children.ToDictionary(
                kv => ((YamlScalarNode)kv.Key).Value ?? "",
                kv =>
                {
                    var node = ((YamlMappingNode)kv.Value).Mapping("inbound") ?? new YamlMappingNode();
                    return new Inbound(node.Scalar("timeout"), node.Scalar("retry"), node.Scalar("circuitBreaker"));
                });
            specs.Add(new DaprResiliency(
                System.IO.Path.GetFileName(file),
                root.Scalar("apiVersion") ?? "",
                root.Strings("scopes"),
                policies.Mapping("timeouts").ScalarMap(),
                retries,
                (policies.Mapping("circuitBreakers") ?? new YamlMappingNode()).Children.Keys
                    .Select(k => ((YamlScalarNode)k).Value ?? "").ToList(),
                inbound));
        }

        return specs;
    }

    internal sealed record Retry(string Policy, string? Duration, string? MaxRetries, string? HttpStatusCodes)
    {
        /// <summary>Dapr's default maxRetries is -1: retry forever.</summary>
        public int MaxRetriesOrDefault => MaxRetries is null ? -1 : int.Parse(MaxRetries, CultureInfo.InvariantCulture);

        /// <summary>Whether an HTTP answer with this status would be retried (no matching = every failure).</summary>
        public bool RetriesStatus(int status) =>
            HttpStatusCodes is null || HttpStatusCodes.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .Select(range => range.Split('-'))
                .Any(bounds => status >= int.Parse(bounds[0], CultureInfo.InvariantCulture)
                    && status <= int.Parse(bounds[^1], CultureInfo.InvariantCulture));
    }

    internal sealed record Inbound(string? Timeout, string? Retry, string? CircuitBreaker);
}

/// <summary>Go duration strings as Dapr reads them ("20s", "1m30s", "500ms"); a bare number is milliseconds, as pubsub.redis reads it.</summary>
internal static partial class GoDuration
{
    public static TimeSpan Parse(string? value)
    {
        Assert.False(string.IsNullOrWhiteSpace(value), "duration is missing");
        if (long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var milliseconds))
        {
            return TimeSpan.FromMilliseconds(milliseconds);
        }

        var parts = Part().Matches(value!);
        Assert.True(parts.Count > 0 && string.Concat(parts.Select(p => p.Value)) == value, $"'{value}' is not a Go duration");
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
