using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

/// <summary>An app's appsettings.json, read as the configuration keys the apps use ("Section:Key").</summary>
internal sealed class AppSettings
{
    private readonly JsonElement _root;

    private AppSettings(JsonElement root) => _root = root;

    public static AppSettings Load(string relative)
    {
        var options = new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };
        using var document = JsonDocument.Parse(Repo.Read(relative), options);
        return new AppSettings(document.RootElement.Clone());
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

            return current.ValueKind == JsonValueKind.String ? current.GetString() : current.GetRawText();
        }
    }

    public string Required(string key) =>
        this[key] ?? throw new Xunit.Sdk.XunitException($"appsettings has no {key}");

    public int RequiredInt(string key) => int.Parse(Required(key), System.Globalization.CultureInfo.InvariantCulture);
}
