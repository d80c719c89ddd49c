using System.CommandLine;
using Azure.Identity;
using Azure.Messaging.ServiceBus;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.DeadLetters;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;
using StackExchange.Redis;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>dead-letters</c>: lists what the apps refused for good, kept on the dead-letter queue (a local run's Redis or
/// RabbitMQ, or Service Bus in Azure), or resubmits one to the ingress queue.
/// </summary>
internal static class DeadLettersCommand
{
    public static Command Create(IAnsiConsole console)
    {
        var command = new Command("dead-letters",
            $"List the messages the apps refused for good, kept on {OrderTopology.DeadLetterQueue} " +
            "(Redis, RabbitMQ or Service Bus), or resubmit one.")
        {
            Redis, RabbitMq, ServiceBus, Resubmit,
        };
        command.Validators.Add(result =>
        {
            if (new Option[] { Redis, RabbitMq, ServiceBus }.Count(o => result.GetResult(o) is { Implicit: false }) > 1)
            {
                result.AddError("--redis, --rabbitmq and --service-bus each name the queue's broker: give one.");
            }
        });
        return command.Runs(async (result, ct) =>
        {
            var (letters, connection) = await OpenAsync(result, ct);
            await using (connection)
            {
                return await RunAsync(console, letters, result.GetValue(Resubmit), ct);
            }
        });
    }

    private static async Task<int> RunAsync(
        IAnsiConsole console, IKeptDeadLetters letters, string? resubmit, CancellationToken cancellationToken)
    {
        if (resubmit is { } id)
        {
            if (await letters.ResubmitAsync(id, cancellationToken) is not { } resubmitted)
            {
                console.MarkupLineInterpolated(
                    $"[red]No whole dead letter {id} on {OrderTopology.DeadLetterQueue}.[/]");
                return ExitCodes.BadInput;
            }

            ResultLine.Write(console, $"Resubmitted {id} to {OrderTopology.IngressQueue}: " +
                DeadLetterCount.Describe(resubmitted));
            return ExitCodes.Done;
        }

        var listed = await letters.ListAsync(cancellationToken);
        foreach (var (entry, letter) in listed)
        {
            ResultLine.Write(console,
                $"{entry} {(letter is null ? "(not a dead letter)" : DeadLetterCount.Describe(letter))}");
        }

        ResultLine.Write(console, $"{listed.Count} dead letters on {OrderTopology.DeadLetterQueue}");
        return ExitCodes.Done;
    }

    /// <returns>The queue on the broker the options name, and the connection to close after.</returns>
    private static async Task<(IKeptDeadLetters Letters, IAsyncDisposable Connection)> OpenAsync(
        ParseResult result, CancellationToken cancellationToken)
    {
        if (result.GetValue(RabbitMq) is { } amqp)
        {
            var rabbit = await RabbitMqDeadLetters.ConnectAsync(amqp, cancellationToken);
            return (new RabbitMqDeadLetters(rabbit), rabbit);
        }

        if (result.GetValue(ServiceBus) is { } serviceBus)
        {
            var client = new ServiceBusClient(serviceBus, new DefaultAzureCredential());
            return (new ServiceBusDeadLetters(client), client);
        }

        var redis = await ConnectionMultiplexer.ConnectAsync(new ConfigurationOptions
        {
            EndPoints = { result.GetValue(Redis)! },
            ConnectTimeout = 5_000,
        });
        return (new RedisDeadLetters(redis.GetDatabase()), redis);
    }
}
