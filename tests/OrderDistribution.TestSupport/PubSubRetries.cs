using System.Globalization;
using OrderDistribution.TestSupport.Components;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.TestSupport;

/// <summary>
/// How the sidecars deliver pub/sub messages, as the component folder says: the inbound retry policy of
/// <c>resiliency.yaml</c> that targets the pub/sub component, and the component's <c>processingTimeout</c>,
/// <c>redeliverInterval</c> and <c>entryKeepAliveInterval</c> (null: none given). Tests run the sidecar emulator with
/// these, so that changing the YAML changes their result.
/// </summary>
public sealed record PubSubRetries(TimeSpan RetryInterval, int MaxRetries, TimeSpan ProcessingTimeout,
    TimeSpan RedeliverInterval, TimeSpan? EntryKeepAliveInterval)
{
    public const string Folder = "components-pubsub";

    /// <summary>The files in <see cref="Folder"/>, as they are shipped.</summary>
    public static PubSubRetries Shipped() => Parse(ShippedText("order-pubsub.yaml"), ShippedText("resiliency.yaml"));

    public static string ShippedText(string file) => File.ReadAllText(Path.Combine(RepositoryRoot.Path, Folder, file));

    /// <summary>The pub/sub component and the resiliency spec that targets it.</summary>
    public static PubSubRetries Parse(string componentYaml, string resiliencyYaml)
    {
        var component = Load(componentYaml);
        var name = Scalar(Mapping(component, "metadata"), "name");
        var metadata = ((YamlSequenceNode)Mapping(component, "spec").Children[new YamlScalarNode("metadata")]).Children
            .Cast<YamlMappingNode>()
            .ToDictionary(m => Scalar(m, "name"), m => Scalar(m, "value"));

        var spec = Mapping(Load(resiliencyYaml), "spec");
        var inbound = Mapping(Mapping(Mapping(Mapping(spec, "targets"), "components"), name), "inbound");
        var retry = Mapping(Mapping(Mapping(spec, "policies"), "retries"), Scalar(inbound, "retry"));
        if (Scalar(retry, "policy", "constant") != "constant")
        {
            throw new InvalidOperationException("Only a constant retry policy is modelled.");
        }

        return new PubSubRetries(
            GoDuration.Parse(Scalar(retry, "duration", "5s")),
            int.Parse(Scalar(retry, "maxRetries", "-1"), CultureInfo.InvariantCulture),
            GoDuration.Parse(metadata["processingTimeout"]),
            RedisRedeliverInterval.OnEveryRuntime(metadata.GetValueOrDefault("redeliverInterval")),
            metadata.TryGetValue("entryKeepAliveInterval", out var keepAlive) ? GoDuration.Parse(keepAlive) : null);
    }

    /// <summary>
    /// The sidecar emulator's settings for these, every time multiplied by <paramref name="scale"/> (1/10 runs a
    /// 20 s processingTimeout in 2 s).
    /// </summary>
    public EmulatedSidecarOptions SidecarOptions(double scale, DaprRuntimeProfile runtime) => new()
    {
        Runtime = runtime,
        RetryInterval = RetryInterval * scale,
        MaxRetries = MaxRetries,
        ProcessingTimeout = ProcessingTimeout * scale,
        RedeliverInterval = RedeliverInterval * scale,
        EntryKeepAliveInterval = EntryKeepAliveInterval * scale,
    };

    /// <summary>
    /// How long the inbound retries of one delivery can last: a bounded policy's, or (-1) the delivery's context.
    /// </summary>
    public TimeSpan RetryWindow => MaxRetries < 0 ? ProcessingTimeout : RetryInterval * MaxRetries;

    private static YamlMappingNode Load(string text)
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(text));
        return (YamlMappingNode)stream.Documents.Single().RootNode;
    }

    private static YamlMappingNode Mapping(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var child) && child is YamlMappingNode mapping
            ? mapping
            : throw new InvalidOperationException($"No mapping '{key}'.");

    private static string Scalar(YamlMappingNode node, string key, string? fallback = null) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var child)
            && child is YamlScalarNode { Value: { } value }
            ? value
            : fallback ?? throw new InvalidOperationException($"No value '{key}'.");

}
