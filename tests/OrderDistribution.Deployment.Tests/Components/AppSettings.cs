using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using OrderDistribution.Distributor;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Receiver;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// An app's settings as it runs with no environment of its own: the defaults of its typed options, with its
/// appsettings.json over them, read as the configuration keys the apps use ("Section:Key").
/// </summary>
internal sealed class AppSettings
{
    private static readonly JsonSerializerOptions Json = new() { Converters = { new JsonStringEnumConverter() } };

    private readonly JsonElement _root;

    private AppSettings(JsonElement root) => _root = root;

    public static AppSettings Load(string relative)
    {
        var defaults = relative == Contract.DistributorSettings
            ? Sections((MessagingOptions.Section, new MessagingOptions()),
                (DistributorOptions.Section, new DistributorOptions()),
                (SidecarOptions.Section, new SidecarOptions()), (ReadinessOptions.Section, new ReadinessOptions()))
            : Sections((MessagingOptions.Section, new MessagingOptions()),
                (ReceiverOptions.Section, new ReceiverOptions()),
                (StorageOptions.Section, new StorageOptions()), (ReadinessOptions.Section, new ReadinessOptions()));
        var file = JsonNode.Parse(Repo.Read(relative), documentOptions: new JsonDocumentOptions
        {
            CommentHandling = JsonCommentHandling.Skip,
            AllowTrailingCommas = true,
        })!.AsObject();
        Merge(defaults, file);
        return new AppSettings(JsonSerializer.SerializeToElement(defaults));
    }

    private static JsonObject Sections(params (string Name, object Options)[] sections)
    {
        var root = new JsonObject();
        foreach (var (name, options) in sections)
        {
            root[name] = JsonSerializer.SerializeToNode(options, options.GetType(), Json);
        }

        return root;
    }

    /// <summary>As configuration binds: a key in the file replaces the default, a section merges into it.</summary>
    private static void Merge(JsonObject into, JsonObject from)
    {
        foreach (var (key, value) in from.ToList())
        {
            if (value is JsonObject section && into[key] is JsonObject existing)
            {
                Merge(existing, section);
            }
            else
            {
                into[key] = value?.DeepClone();
            }
        }
    }

    public string? this[string key]
    {
        get
        {
            var current = _root;
            foreach (var part in key.Split(':'))
            {
                if (current.ValueKind != JsonValueKind.Object || !current.TryGetProperty(part, out current))
                {
                    return null;
                }
            }

            return current.ValueKind switch
            {
                JsonValueKind.String => current.GetString(),
                JsonValueKind.Null => null,
                _ => current.GetRawText(),
            };
        }
    }

    public string Required(string key) =>
        this[key] ?? throw new Xunit.Sdk.XunitException($"appsettings has no {key}");

    public int RequiredInt(string key) => int.Parse(Required(key), System.Globalization.CultureInfo.InvariantCulture);
}
