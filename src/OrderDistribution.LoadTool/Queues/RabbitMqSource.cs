namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// Where the bindings model's queue depths are read: RabbitMQ's management API once a second when it answers, else
/// rabbitmqctl every <see cref="RabbitMqCtlInterval"/>, since each rabbitmqctl call starts an Erlang VM (a few tenths
/// of a CPU-second on the machine the burst runs on), said once in one line.
/// </summary>
public static class RabbitMqSource
{
    public static readonly TimeSpan RabbitMqCtlInterval = TimeSpan.FromSeconds(10);

    /// <summary>The local node's queues of <paramref name="vhost"/>: its API on 127.0.0.1:15672, else
    /// rabbitmqctl.</summary>
    public static Task<(IQueueDepths Depths, TimeSpan Interval)> LocalAsync(
        string vhost, IReadOnlyList<string> queues, Action<string> notice) =>
        ChooseAsync(
            new RabbitMqApiQueueDepths(RabbitMqApiQueueDepths.Client(RabbitMqApiQueueDepths.LocalApi), vhost, queues),
            () => RabbitMqQueueDepths.Local(vhost, queues),
            notice);

    /// <summary>
    /// <paramref name="api"/> with <see cref="QueueSampler.Interval"/> if it gives one reading now; otherwise
    /// (disposed) the source <paramref name="rabbitmqctl"/> makes, with <see cref="RabbitMqCtlInterval"/>.
    /// </summary>
    public static async Task<(IQueueDepths Depths, TimeSpan Interval)> ChooseAsync(
        RabbitMqApiQueueDepths api, Func<IQueueDepths> rabbitmqctl, Action<string> notice)
    {
        try
        {
            await api.ReadAsync(CancellationToken.None);
            return (api, QueueSampler.Interval);
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException or NotSupportedException
            or System.Text.Json.JsonException)
        {
            await api.DisposeAsync();
            notice($"RabbitMQ's management API did not answer ({FailureText.Reason(e)}): the queue series asks " +
                $"rabbitmqctl every {RabbitMqCtlInterval.TotalSeconds:0} s instead " +
                "(rabbitmq-plugins enable rabbitmq_management for one a second).");
            return (rabbitmqctl(), RabbitMqCtlInterval);
        }
    }
}
