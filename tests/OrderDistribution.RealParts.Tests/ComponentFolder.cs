using System.Text;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// A copy of one of the repository's component folders for brokers that listen elsewhere than the fixed local
/// addresses it names (Redis on localhost:6379, RabbitMQ on 127.0.0.1:5672): every file as it is, byte for byte,
/// except the broker address values themselves. What the sidecars run is therefore the repository's folder.
/// </summary>
public static class ComponentFolder
{
    /// <summary>The metadata that holds a broker's address, by component type.</summary>
    private static readonly Dictionary<string, string> AddressKeys = new(StringComparer.Ordinal)
    {
        ["pubsub.redis"] = "redisHost",
        ["bindings.rabbitmq"] = "host",
    };

    /// <summary>
    /// Writes the copy of <paramref name="source"/> into <paramref name="target"/> (created if need be).
    /// </summary>
    public static void Render(string source, string target, ComponentAddresses addresses)
    {
        Directory.CreateDirectory(target);
        foreach (var file in Directory.EnumerateFiles(source))
        {
            var text = File.ReadAllText(file);
            var rendered = Path.GetExtension(file) is ".yaml" or ".yml" ? WithAddresses(text, addresses, file) : text;
            File.WriteAllText(Path.Combine(target, Path.GetFileName(file)), rendered);
        }
    }

    private static string WithAddresses(string text, ComponentAddresses addresses, string file)
    {
        var root = Yaml.LoadMapping(text);
        if (root.Scalar("kind") != "Component" || root.Mapping("spec") is not { } spec
            || !AddressKeys.TryGetValue(spec.Scalar("type") ?? "", out var key))
        {
            return text;
        }

        var value = spec.Sequence("metadata").Cast<YamlMappingNode>()
                        .Where(m => m.Scalar("name") == key)
                        .Select(m => m.Child("value") as YamlScalarNode)
                        .SingleOrDefault()
                    ?? throw new InvalidDataException($"{file} has no metadata value {key}.");
        var address = key == "redisHost"
            ? addresses.Redis ?? throw new InvalidOperationException($"{file} needs Redis, and none was started.")
            : WithAuthority(value.Value ?? "",
                addresses.RabbitMq
                ?? throw new InvalidOperationException($"{file} needs RabbitMQ, and none was started."));

        // The value's own characters only: comments, quoting of other values and layout stay as they are.
        var start = (int)value.Start.Index;
        var end = (int)value.End.Index;
        var quote = text[start] is '"' or '\'' ? text[start].ToString() : "";
        return new StringBuilder(text.Length).Append(text, 0, start).Append(quote).Append(address).Append(quote)
            .Append(text, end, text.Length - end).ToString();
    }

    /// <summary>The URI with its host:port replaced, its login and path kept.</summary>
    private static string WithAuthority(string uri, string hostAndPort)
    {
        var parsed = new Uri(uri);
        var at = uri.IndexOf(parsed.Authority, uri.IndexOf("//", StringComparison.Ordinal) + 2,
            StringComparison.Ordinal);
        return string.Concat(uri.AsSpan(0, at), hostAndPort, uri.AsSpan(at + parsed.Authority.Length));
    }
}
