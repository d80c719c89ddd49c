using System.Diagnostics;
using System.Globalization;

namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// The bindings model's queues are RabbitMQ queues: the orders waiting are each queue's messages, ready and
/// unacknowledged (the binding's consumers hold up to 2,000 each unacknowledged), as <c>rabbitmqctl list_queues name
/// messages</c> prints them. rabbitmqctl starts an Erlang VM per call (0.3-0.56 CPU-s here), so it is the fallback of
/// <see cref="RabbitMqSource"/> for a node without its management API, asked once per 10 s tick, and a slow answer
/// delays the next one rather than piling up.
/// </summary>
/// <param name="listQueues">Returns rabbitmqctl's <c>list_queues name messages</c> output for the vhost.</param>
public sealed class RabbitMqQueueDepths(Func<CancellationToken, Task<string>> listQueues, IReadOnlyList<string> queues)
    : IQueueDepths
{
    /// <summary>Asks the local node with rabbitmqctl, about the queues of <paramref name="vhost"/>.</summary>
    public static RabbitMqQueueDepths Local(string vhost, IReadOnlyList<string> queues) =>
        new(ct => RabbitMqCtlAsync(vhost, ct), queues);

    public async Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken cancellationToken) =>
        Parse(await listQueues(cancellationToken), queues);

    /// <summary>
    /// Each named queue's count from <c>list_queues name messages</c> lines (tab- or space-separated).
    /// </summary>
    public static IReadOnlyDictionary<string, long> Parse(string listing, IReadOnlyList<string> queues)
    {
        var depths = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in listing.Split('\n'))
        {
            var cells = line.Split(['\t', ' '], StringSplitOptions.RemoveEmptyEntries);
            if (cells.Length == 2 && queues.Contains(cells[0])
                && long.TryParse(cells[1], NumberStyles.None, CultureInfo.InvariantCulture, out var messages))
            {
                depths[cells[0]] = messages;
            }
        }

        return depths;
    }

    private static async Task<string> RabbitMqCtlAsync(string vhost, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo("rabbitmqctl") { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "-q", "list_queues", "-p", vhost, "name", "messages" })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException("rabbitmqctl did not start");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        _ = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        return process.ExitCode == 0 ? await output : "";
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
