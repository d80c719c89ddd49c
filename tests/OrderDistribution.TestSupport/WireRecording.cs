using System.Text;
using System.Text.Json;

namespace OrderDistribution.TestSupport;

/// <summary>A request a real sidecar sent, as recorded in DaprWire/.</summary>
public sealed record WireRecording(string Name, IReadOnlyDictionary<string, string> Headers, string Body)
{
    public static IEnumerable<string> RequestNames() =>
        Directory.GetFiles(Folder, "*.request.json").Select(Path.GetFileName).Order()!;

    public static WireRecording Load(string fileName)
    {
        using var document = JsonDocument.Parse(File.ReadAllText(Path.Combine(Folder, fileName)));
        var root = document.RootElement;
        var headers = root.GetProperty("headers").EnumerateObject()
            .ToDictionary(h => h.Name, h => h.Value.GetString()!);
        return new WireRecording(fileName, headers, root.GetProperty("body").GetRawText());
    }

    public static string LoadText(string fileName) => File.ReadAllText(Path.Combine(Folder, fileName));

    public string ContentType => Headers.TryGetValue("Content-Type", out var type) ? type : "application/json";

    /// <summary>The request, re-addressed to one of the app's routes, with the headers the sidecar sent.</summary>
    public HttpRequestMessage ToRequest(string route)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, route)
        {
            Content = new StringContent(Body, Encoding.UTF8),
        };
        request.Content.Headers.ContentType = System.Net.Http.Headers.MediaTypeHeaderValue.Parse(ContentType);
        foreach (var (name, value) in Headers.Where(h => h.Key != "Content-Type"))
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }

        return request;
    }

    private static string Folder => Path.Combine(AppContext.BaseDirectory, "DaprWire");
}
