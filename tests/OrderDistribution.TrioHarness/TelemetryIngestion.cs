using System.Collections.Concurrent;
using System.Globalization;
using System.IO.Compression;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace OrderDistribution.TrioHarness;

/// <summary>
/// A stand-in for Application Insights' ingestion endpoint on 127.0.0.1. Apps given its <see cref="ConnectionString"/>
/// build, serialize, compress and send their telemetry as they do in Azure, so their CPU includes it; it counts what
/// arrives by kind (the item's <c>baseType</c>: RequestData, EventData, ...) and its JSON bytes, of which Log Analytics
/// bills the columns it stores (docs/benchmark.md, "Telemetry items and bytes per order").
/// </summary>
public sealed class TelemetryIngestion : IAsyncDisposable
{
    private readonly WebApplication _server;
    private readonly ConcurrentDictionary<string, TelemetryKind> _received = new();

    private TelemetryIngestion(WebApplication server)
    {
        _server = server;
    }

    /// <summary>
    /// What the apps are given as <c>APPLICATIONINSIGHTS_CONNECTION_STRING</c>; live metrics come here too.
    /// </summary>
    public string ConnectionString
    {
        get
        {
            var address = LoopbackServer.AddressOf(_server);
            return $"InstrumentationKey={Guid.Empty};IngestionEndpoint={address};LiveEndpoint={address}";
        }
    }

    public static async Task<TelemetryIngestion> StartAsync()
    {
        var server = LoopbackServer.Create();
        var ingestion = new TelemetryIngestion(server);
        server.MapPost("/v2/track", ingestion.TrackAsync);
        // Live metrics' pings: answered without subscribing, as when nobody watches the app's live metrics.
        server.MapPost("/QuickPulseService.svc/{**operation}", () => TypedResults.Ok());
        await server.StartAsync();
        return ingestion;
    }

    /// <summary>What arrived so far, by kind.</summary>
    public IReadOnlyDictionary<string, TelemetryKind> Received() => new Dictionary<string, TelemetryKind>(_received);

    /// <summary>
    /// What arrived between two <see cref="Received"/> readings, per order: items, bytes, and items by kind.
    /// </summary>
    public static string PerOrder(IReadOnlyDictionary<string, TelemetryKind> after,
        IReadOnlyDictionary<string, TelemetryKind> before, int orders)
    {
        var burst = after.ToDictionary(k => k.Key,
            k => k.Value - before.GetValueOrDefault(k.Key, new TelemetryKind(0, 0)));
        var kinds = string.Join(", ", burst.Where(k => k.Value.Items > 0).OrderBy(k => k.Key, StringComparer.Ordinal)
            .Select(k => string.Create(CultureInfo.InvariantCulture,
                $"{k.Key} {k.Value.Items / (double)orders:0.000}")));
        return string.Create(CultureInfo.InvariantCulture,
            $"{burst.Values.Sum(k => k.Items) / (double)orders:0.000} items, " +
            $"{burst.Values.Sum(k => k.Bytes) / (double)orders:N0} JSON bytes ({kinds})");
    }

    private async Task<IResult> TrackAsync(HttpRequest request)
    {
        var body = request.Headers.ContentEncoding == "gzip"
            ? new GZipStream(request.Body, CompressionMode.Decompress)
            : request.Body;
        using var reader = new StreamReader(body, Encoding.UTF8);
        var items = 0;
        while (await reader.ReadLineAsync() is { Length: > 0 } line)
        {
            items++;
            var kind = KindOf(line);
            var bytes = Encoding.UTF8.GetByteCount(line);
            _received.AddOrUpdate(kind, new TelemetryKind(1, bytes), (_, k) => k + new TelemetryKind(1, bytes));
        }

        return TypedResults.Json(new { itemsReceived = items, itemsAccepted = items, errors = Array.Empty<object>() });
    }

    private static string KindOf(string item)
    {
        const string BaseType = "\"baseType\":\"";
        var start = item.IndexOf(BaseType, StringComparison.Ordinal);
        if (start < 0)
        {
            return "unknown";
        }

        start += BaseType.Length;
        return item[start..item.IndexOf('"', start)];
    }

    public async ValueTask DisposeAsync() => await _server.DisposeAsync();
}
