using System.Globalization;
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
            HttpStatusCodes is null
                || HttpStatusCodes.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .Select(range => range.Split('-'))
                .Any(bounds => status >= int.Parse(bounds[0], CultureInfo.InvariantCulture)
                    && status <= int.Parse(bounds[^1], CultureInfo.InvariantCulture));
    }

    internal sealed record Inbound(string? Timeout, string? Retry, string? CircuitBreaker);
}
