using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;

namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// The bindings model's queue depths from RabbitMQ's management API (the <c>rabbitmq_management</c> plugin):
/// <c>GET /api/queues/{vhost}?columns=name,messages</c>, each queue's messages ready and unacknowledged, as
/// <c>rabbitmqctl list_queues name messages</c> counts them, over one HTTP connection instead of an Erlang VM per
/// reading.
/// </summary>
public sealed class RabbitMqApiQueueDepths(HttpClient http, string vhost, IReadOnlyList<string> queues) : IQueueDepths
{
    /// <summary>Where a local RabbitMQ's management plugin listens by default.</summary>
    public static readonly Uri LocalApi = new("http://127.0.0.1:15672/");

    /// <summary>An HTTP client for the API at <paramref name="api"/>, as guest (RabbitMQ's loopback-only
    /// login).</summary>
    public static HttpClient Client(Uri api) => new()
    {
        BaseAddress = api,
        Timeout = TimeSpan.FromSeconds(5),
        DefaultRequestHeaders =
        {
            Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String("guest:guest"u8.ToArray())),
        },
    };

    public async Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken cancellationToken)
    {
        var rows = await http.GetFromJsonAsync<QueueRow[]>(
            $"api/queues/{Uri.EscapeDataString(vhost)}?columns=name,messages", JsonSerializerOptions.Web,
            cancellationToken);
        return Depths(rows ?? [], queues);
    }

    /// <summary>
    /// Each named queue's messages; a queue whose statistics the broker has not gathered yet (no <c>messages</c>) is
    /// left out, as one it does not have.
    /// </summary>
    public static IReadOnlyDictionary<string, long> Depths(IEnumerable<QueueRow> rows, IReadOnlyList<string> queues) =>
        rows.Where(row => row.Messages is not null && queues.Contains(row.Name))
            .ToDictionary(row => row.Name, row => row.Messages!.Value, StringComparer.Ordinal);

    public ValueTask DisposeAsync()
    {
        http.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>One queue as the API lists it, with the columns asked for.</summary>
    public sealed record QueueRow(string Name, long? Messages);
}
