using System.Diagnostics;
using System.Net.Http.Headers;
using System.Threading.Channels;

namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>
/// One queue delivered to its app in one model, as the sidecar delivers it; <see cref="RunAsync"/> is one worker, and
/// the emulator runs as many at once as the model's concurrency. Each delivery's answer settles its messages in the
/// <see cref="EmulatedBroker"/>: SUCCESS is done, DROP is forwarded to <paramref name="deadLetterTopic"/> when the
/// subscription declares one and discarded when not, anything else is the model's retry.
/// </summary>
internal abstract class Delivery(
    EmulatedBroker broker, string queue, HttpClient app, QueueReport report, string? deadLetterTopic = null)
{
    protected EmulatedBroker Broker => broker;

    protected string Queue => queue;

    protected QueueReport Report => report;

    protected ChannelReader<EmulatedMessage> Messages { get; } = broker.Reader(queue);

    /// <summary>Delivers until the emulator stops.</summary>
    public async Task RunAsync()
    {
        while (await broker.WaitToReadAsync(Messages))
        {
            if (Messages.TryRead(out var message))
            {
                await DeliverAsync(message);
            }
        }
    }

    /// <summary>
    /// Delivers the message read (with any the model gathers beside it) and settles it by the app's answer.
    /// </summary>
    protected abstract Task DeliverAsync(EmulatedMessage message);

    /// <summary>What the model does with a message answered RETRY (or not answered).</summary>
    protected abstract void Retry(EmulatedMessage message);

    protected void Settle(EmulatedMessage message, string status)
    {
        switch (status)
        {
            case "SUCCESS":
                broker.Done(queue, message);
                break;
            case "DROP":
                broker.Drop(queue, message, report, deadLetterTopic);
                break;
            default:
                report.Retry();
                Retry(message);
                break;
        }
    }

    /// <returns>The app's status and body; status 0 when it did not answer.</returns>
    protected async Task<(int Status, string Body)> PostAsync(
        string route, ReadOnlyMemory<byte> body, string contentType, (string Name, string Value)? header = null)
    {
        var clock = Stopwatch.StartNew();
        try
        {
            using var content = new ReadOnlyMemoryContent(body);
            content.Headers.ContentType = new MediaTypeHeaderValue(contentType);
            if (header is var (name, value))
            {
                content.Headers.Add(name, value);
            }

            using var response = await app.PostAsync(route, content, broker.Stopping);
            var answer = await response.Content.ReadAsStringAsync(broker.Stopping);
            return ((int)response.StatusCode, answer);
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException)
        {
            return (0, "");
        }
        finally
        {
            report.Answered(clock.Elapsed);
        }
    }
}
