using System.Net;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// Text from the wire that the distributor logs (entry ids, CloudEvent ids and types, topics, the sidecar's error text)
/// cannot start a line of its own on the console, whatever line break it carries: the distributor runs as its own
/// program and its console output is read whole.
/// </summary>
public sealed class WireTextLoggingTests
{
    /// <summary>Every way a line can end or a log reader can be misled: CR, LF, CRLF, NEL, LS, PS, ESC.</summary>
    private static readonly string[] Breaks = ["\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\u001b[2K\r"];

    [Fact]
    public async Task Line_breaks_in_wire_text_never_start_a_console_line_of_their_own()
    {
        await using var sidecar = await RefusingSidecarAsync();
        var port = Azurite.FreePort();
        var address = AppHost.AddressOf(sidecar).ToString();
        await using var app = AppRun.Start(AppHost.Distributor,
            [("DAPR_HTTP_ENDPOINT", address), ("DAPR_GRPC_ENDPOINT", address)], $"http://127.0.0.1:{port}");
        using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
        await Eventually.TrueAsync(() => app.OutputSoFar.Contains("Now listening", StringComparison.Ordinal)
            || app.OutputSoFar.Contains("Application started", StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        await Eventually.StatusAsync(client, "/alive", HttpStatusCode.OK);

        // The sidecar's refusal of a forwarded order is logged with the first RETRY of an outage, as the shared pace of
        // warnings allows: an order now and then until it is. First, before the poison below, whose dead letters the
        // refusing sidecar fails too, opening the app's circuit breaker.
        for (var tries = 0; tries < 30 && !app.OutputSoFar.Contains("SIDECAR", StringComparison.Ordinal); tries++)
        {
            await PostAsync(client, $"/{OrderTopology.IngressInputBinding}", "application/json",
                $$"""{"OrderId":1,"OrderGuid":"{{Guid.NewGuid()}}","Delivery":"Express"}""");
            await Task.Delay(TimeSpan.FromSeconds(1));
        }

        var forged = 0;
        string Forge(string text) => $"{text}{Breaks[forged++ % Breaks.Length]}crit: FORGED {forged}";
        var entryId = Forge("x");
        var entries = Breaks.Select((_, i) => (object)new
        {
            entryId = Forge("e"),
            contentType = "application/cloudevents+json",
            metadata = new { },
            @event = new { specversion = "1.0", id = Forge("c"), type = Forge("t"), data = i },
        });
        await PostAsync(client, $"/{OrderTopology.IngressQueue}-bulk", "application/json", Json(new
        {
            id = "r",
            topic = Forge("q"),
            pubsubname = "orders",
            type = "x",
            metadata = new { },
            entries = entries.Prepend(
                new { entryId, @event = 42, contentType = "application/json", metadata = new { } }),
        }));
        await PostAsync(client, $"/{OrderTopology.IngressQueue}-single", "application/cloudevents+json",
            Json(new { specversion = "1.0", id = Forge("s"), type = Forge("t"), data = "zzz" }));
        // The poison's entry id is named by the next line of the outage, which the next request brings.
        for (var tries = 0; tries < 30 && !app.OutputSoFar.Contains(Escaped(entryId), StringComparison.Ordinal);
             tries++)
        {
            await PostAsync(client, $"/{OrderTopology.IngressInputBinding}", "application/json",
                $$"""{"OrderId":2,"OrderGuid":"{{Guid.NewGuid()}}","Delivery":"Express"}""");
            await Task.Delay(TimeSpan.FromSeconds(1));
        }

        Assert.True(app.OutputSoFar.Contains("SIDECAR", StringComparison.Ordinal), app.OutputSoFar);
        var output = await app.StopAsync();
        var lines = output.Split(['\n', '\r', '\u0085', '\u2028', '\u2029']);
        Assert.DoesNotContain(lines, line => line.TrimStart().StartsWith("crit: FORGED", StringComparison.Ordinal));
        Assert.DoesNotContain('\u001b', output);
        Assert.Contains(Escaped(entryId), output, StringComparison.Ordinal);
    }

    private static string Escaped(string text) =>
        text.Replace("\n", "\\n", StringComparison.Ordinal).Replace("\r", "\\r", StringComparison.Ordinal);

    private static string Json(object value) => System.Text.Json.JsonSerializer.Serialize(value);

    private static async Task PostAsync(HttpClient client, string path, string contentType, string body)
    {
        using var content = new StringContent(body, Encoding.UTF8);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(contentType);
        using var response = await client.PostAsync(path, content);
    }

    /// <summary>A sidecar that refuses every call with an error whose text holds a forged log line.</summary>
    private static async Task<WebApplication> RefusingSidecarAsync()
    {
        var builder = WebApplication.CreateSlimBuilder(LoopbackServer.ReadSettingsOnce);
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        var sidecar = builder.Build();
        sidecar.Run(context =>
        {
            context.Response.StatusCode = StatusCodes.Status500InternalServerError;
            context.Response.ContentType = "application/json";
            return context.Response.WriteAsync(
                """{"errorCode":"ERR_INVOKE_OUTPUT_BINDING","message":"SIDECAR down\ncrit: FORGED by the sidecar"}""");
        });
        await sidecar.StartAsync();
        return sidecar;
    }
}
