using System.Net.Http.Json;
using System.Text.Json;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>
/// What the sidecar says of itself (<c>GET /v1.0/metadata</c>): its components (name, type) and the app's
/// subscriptions. It tells whether the sidecar is there at all, and which model the distributor runs.
/// </summary>
public sealed class SidecarMetadata
{
    public const string PubSubName = OrderTopology.PubSubName;
    public const string IngressQueue = OrderTopology.IngressQueue;
    public const string IngressInputBinding = OrderTopology.IngressInputBinding;

    /// <summary>Where a sidecar reads its API token, and the tool the token it sends (<c>dapr-api-token</c>).</summary>
    public const string ApiTokenVariable = "DAPR_API_TOKEN";

    /// <summary>
    /// An HTTP client for the sidecar at <paramref name="sidecar"/>, carrying DAPR_API_TOKEN when set.
    /// </summary>
    public static HttpClient Client(Uri sidecar)
    {
        var http = new HttpClient { BaseAddress = sidecar, Timeout = TimeSpan.FromSeconds(60) };
        if (Environment.GetEnvironmentVariable(ApiTokenVariable) is { Length: > 0 } token)
        {
            http.DefaultRequestHeaders.Add("dapr-api-token", token);
        }

        return http;
    }

    private SidecarMetadata(
        string? appId,
        IReadOnlyList<(string Name, string Type)> components,
        IReadOnlyList<(string PubSub, string Topic)> subscriptions)
    {
        AppId = appId;
        Components = components;
        Subscriptions = subscriptions;
    }

    public string? AppId { get; }

    public IReadOnlyList<(string Name, string Type)> Components { get; }

    public IReadOnlyList<(string PubSub, string Topic)> Subscriptions { get; }

    /// <summary>
    /// Whether the sidecar's app runs a pub/sub model (true: it subscribes to the ingress queue; which of the two the
    /// metadata does not tell) or the bindings model (false: it has the ingress input binding); null if neither.
    /// </summary>
    public bool? RunsPubSub =>
        Subscriptions.Any(s => s.PubSub == PubSubName && s.Topic == IngressQueue) ? true
        : Components.Any(c => c.Name == IngressInputBinding
                              && c.Type.StartsWith("bindings.", StringComparison.Ordinal)) ? false
        : null;

    public static SidecarMetadata Parse(JsonElement root)
    {
        static string? Text(JsonElement e, params string[] names) =>
            names.Select(n => e.TryGetProperty(n, out var v) && v.ValueKind == JsonValueKind.String
                    ? v.GetString()
                    : null)
                .FirstOrDefault(v => v is not null);

        static IEnumerable<JsonElement> Array(JsonElement e, string name) =>
            e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Array ? v.EnumerateArray() : [];

        return new SidecarMetadata(
            Text(root, "id"),
            Array(root, "components").Select(c => (Text(c, "name") ?? "", Text(c, "type") ?? "")).ToList(),
            Array(root, "subscriptions")
                .Select(s => (Text(s, "pubsubname", "pubsubName") ?? "", Text(s, "topic") ?? "")).ToList());
    }

    /// <returns>
    /// The metadata, or null when the sidecar answers but offers no metadata API (then nothing can be checked).
    /// </returns>
    /// <exception cref="LoadToolException">
    /// The sidecar cannot be reached, does not answer in time, or refuses the tool (API token).
    /// </exception>
    public static async Task<SidecarMetadata?> ReadAsync(HttpClient sidecar, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(5));
        try
        {
            using var response = await sidecar.GetAsync(new Uri("v1.0/metadata", UriKind.Relative), timeout.Token);
            if (response.StatusCode is System.Net.HttpStatusCode.Unauthorized or System.Net.HttpStatusCode.Forbidden)
            {
                throw Refused(sidecar.BaseAddress, (int)response.StatusCode);
            }

            if (!response.IsSuccessStatusCode)
            {
                return null;
            }

            return Parse(await response.Content.ReadFromJsonAsync<JsonElement>(timeout.Token));
        }
        catch (Exception e) when (e is HttpRequestException
                                  || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            throw new LoadToolException(
                $"The Dapr sidecar at {sidecar.BaseAddress} is not reachable: {FailureText.Reason(e)}.",
                "Start the trio with scripts/run-local.sh (the distributor's sidecar listens on 3501), or pass " +
                "--sidecar with a running sidecar's HTTP endpoint.",
                ExitCodes.Unreachable, e);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// The sidecar asks for an API token (it runs with <c>DAPR_API_TOKEN</c>) that the load tool did not send, or sent
    /// wrong.
    /// </summary>
    public static LoadToolException Refused(Uri? sidecar, int status) => new(
        Environment.GetEnvironmentVariable(ApiTokenVariable) is { Length: > 0 }
            ? $"The Dapr sidecar at {sidecar} refused the load tool ({status}): the {ApiTokenVariable} set here is " +
              "not the sidecar's token."
            : $"The Dapr sidecar at {sidecar} refused the load tool ({status}): it requires an API token (its " +
              $"{ApiTokenVariable}), and none is set here.",
        $"Set {ApiTokenVariable} to the token the trio's sidecars were started with (export {ApiTokenVariable}=...), " +
        "then run again.",
        ExitCodes.BadInput);

    /// <exception cref="LoadToolException">
    /// The sidecar's app runs another model than <paramref name="expected"/>, or none.
    /// </exception>
    public void EnsureModel(MessagingModel expected, Uri sidecar)
    {
        var name = expected.Text();
        switch (RunsPubSub)
        {
            case null:
                throw new LoadToolException(
                    $"The sidecar at {sidecar} ({AppId ?? "unknown app"}) neither subscribes to {IngressQueue} on " +
                    $"{PubSubName} nor has input binding {IngressInputBinding}: it is not the distributor's.",
                    "Pass --sidecar with the distributor's sidecar (3501 in scripts/run-local.sh), and wait until " +
                    "the trio is up.",
                    ExitCodes.BadInput);
            case { } pubSub when pubSub != expected.IsPubSub():
                var running = pubSub
                    ? $"{MessagingModels.PubSubBulk} or {MessagingModels.PubSubSingle}"
                    : MessagingModels.Bindings;
                var model = pubSub ? "pub/sub" : MessagingModels.Bindings;
                throw new LoadToolException(
                    $"The trio runs the {model} model (the distributor's sidecar at {sidecar} has " +
                    (pubSub
                        ? $"a subscription to {IngressQueue} on {PubSubName}"
                        : $"input binding {IngressInputBinding}") +
                    $"), not --model {name}.",
                    $"Run with --model {running}, or restart the trio with scripts/run-local.sh {name}.",
                    ExitCodes.BadInput);
        }
    }
}
