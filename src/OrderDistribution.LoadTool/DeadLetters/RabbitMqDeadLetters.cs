using System.Security.Cryptography;
using OrderDistribution.Contracts;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace OrderDistribution.LoadTool.DeadLetters;

/// <summary>
/// The local bindings model's dead-letter queue: the RabbitMQ quorum queue <see cref="OrderTopology.DeadLetterQueue"/>,
/// each message as bindings.rabbitmq publishes a call of q-order-deadletter-output (the letter's JSON as the body,
/// persistent, content type application/json). Nobody consumes it: a letter stays until it is resubmitted.
/// </summary>
/// <remarks>
/// It is read with basic.get and manual acknowledgement, every letter held unacknowledged on one channel, then handed
/// back with one basic.nack (requeue): nothing is acknowledged but the letter resubmitted, and should the tool die
/// first, the broker requeues what the closed channel held. basic.nack, not basic.reject: RabbitMQ 4.3 and later count
/// only a reject against a quorum queue's delivery limit (default 20 from 4.0); 3.x has no limit unless set.
/// A message has no id of its own, so a letter's id is a digest of its bytes: the same on every listing.
/// </remarks>
public sealed class RabbitMqDeadLetters(IConnection connection) : IKeptDeadLetters
{
    /// <summary>What the input binding of q-order-ingress reads: the body as it is, as the output binding writes
    /// it.</summary>
    private static readonly BasicProperties Resubmitted = new() { Persistent = true, ContentType = "application/json" };

    /// <param name="amqp">The broker and the vhost (its path), as a component's <c>host</c> names them.</param>
    public static Task<IConnection> ConnectAsync(Uri amqp, CancellationToken cancellationToken) =>
        new ConnectionFactory
        {
            Uri = amqp,
            AutomaticRecoveryEnabled = false,
            RequestedConnectionTimeout = TimeSpan.FromSeconds(5),
        }.CreateConnectionAsync(cancellationToken);

    /// <returns>The letters ready on the queue; 0 when the queue does not exist yet (no sidecar has declared
    /// it).</returns>
    public async Task<long> DepthAsync(CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        try
        {
            return (await channel.QueueDeclarePassiveAsync(OrderTopology.DeadLetterQueue, cancellationToken))
                .MessageCount;
        }
        catch (OperationInterruptedException e) when (e.ShutdownReason?.ReplyCode == Constants.NotFound)
        {
            return 0;
        }
    }

    public async Task<IReadOnlyList<(string Id, DeadLetter? Letter)>> ListAsync(CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        var held = await HoldAllAsync(channel, cancellationToken);
        await HandBackAsync(channel, held, cancellationToken);
        return [.. held.Select(message => (message.Id, DeadLetter.Read(message.Body.Span)))];
    }

    /// <summary>
    /// Publishes the letter's body to the ingress queue and waits for the broker's confirm, then acknowledges the
    /// letter: a failure in between leaves it on the dead-letter queue (resubmitted twice at worst, never lost).
    /// </summary>
    public async Task<DeadLetter?> ResubmitAsync(string id, CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true),
            cancellationToken);
        var held = await HoldAllAsync(channel, cancellationToken);
        var found = held.FindIndex(message => message.Id == id);
        var letter = found < 0 ? null : DeadLetter.Read(held[found].Body.Span);
        if (letter is { OmittedChars: 0 })
        {
            await channel.BasicPublishAsync("", OrderTopology.IngressQueue, mandatory: true, Resubmitted,
                letter.BodyBytes(), cancellationToken);
            await channel.BasicAckAsync(held[found].Tag, multiple: false, cancellationToken);
            held.RemoveAt(found);
        }

        await HandBackAsync(channel, held, cancellationToken);
        return letter is { OmittedChars: 0 } ? letter : null;
    }

    private static async Task<List<(string Id, ulong Tag, ReadOnlyMemory<byte> Body)>> HoldAllAsync(
        IChannel channel, CancellationToken cancellationToken)
    {
        var held = new List<(string Id, ulong Tag, ReadOnlyMemory<byte> Body)>();
        try
        {
            while (await channel.BasicGetAsync(OrderTopology.DeadLetterQueue, autoAck: false, cancellationToken) is
                { } message)
            {
                var body = message.Body.ToArray();
                held.Add((Convert.ToHexStringLower(SHA256.HashData(body))[..16], message.DeliveryTag, body));
            }
        }
        catch (OperationInterruptedException e)
            when (held.Count == 0 && e.ShutdownReason?.ReplyCode == Constants.NotFound)
        {
            // No sidecar has declared the queue yet: no letters.
        }

        return held;
    }

    /// <summary>Requeues every letter in <paramref name="held"/>, all that this channel holds unacknowledged.</summary>
    private static async Task HandBackAsync(
        IChannel channel, List<(string Id, ulong Tag, ReadOnlyMemory<byte> Body)> held,
        CancellationToken cancellationToken)
    {
        if (held.Count > 0 && channel.IsOpen)
        {
            await channel.BasicNackAsync(held[^1].Tag, multiple: true, requeue: true, cancellationToken);
        }
    }
}
