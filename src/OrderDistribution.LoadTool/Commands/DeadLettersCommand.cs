using System.CommandLine;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.DeadLetters;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;
using StackExchange.Redis;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>dead-letters</c>: lists what the apps refused for good, kept on the local pub/sub model's dead-letter queue, or
/// resubmits one to the ingress queue.
/// </summary>
internal static class DeadLettersCommand
{
    private static readonly Option<string> Redis = new Option<string>("--redis")
    {
        Description = "The local pub/sub model's Redis (host:port).",
        DefaultValueFactory = _ => "127.0.0.1:6379",
    }.Takes("a Redis address as host:port (e.g. 127.0.0.1:6379)",
        text => text.Length > 0 && EndPointCollection.TryParse(text) is not null ? text : null);

    private static readonly Option<string?> Resubmit = new Option<string?>("--resubmit")
    {
        Description =
            "Put this letter's body (by its id, as listed) on the ingress queue again and take the letter off.",
    }.Takes("a letter's id as listed (e.g. 1733550000000-0)", text => text.Length > 0 ? text : null);

    public static Command Create(IAnsiConsole console) =>
        new Command("dead-letters",
            $"List the messages the apps refused for good, kept on {OrderTopology.DeadLetterQueue} (local pub/sub " +
            "model), or resubmit one.")
        {
            Redis, Resubmit,
        }.Runs(async (result, _) =>
        {
            await using var connection = await ConnectionMultiplexer.ConnectAsync(new ConfigurationOptions
            {
                EndPoints = { result.GetValue(Redis)! },
                ConnectTimeout = 5_000,
            });
            var letters = new RedisDeadLetters(connection.GetDatabase());
            if (result.GetValue(Resubmit) is { } id)
            {
                if (await letters.ResubmitAsync(id) is not { } resubmitted)
                {
                    console.MarkupLineInterpolated(
                        $"[red]No whole dead letter {id} on {OrderTopology.DeadLetterQueue}.[/]");
                    return ExitCodes.BadInput;
                }

                ResultLine.Write(console, $"Resubmitted {id} to {OrderTopology.IngressQueue}: " +
                    DeadLetterCount.Describe(resubmitted));
                return ExitCodes.Done;
            }

            var listed = await letters.ListAsync();
            foreach (var (entry, letter) in listed)
            {
                ResultLine.Write(console,
                    $"{entry} {(letter is null ? "(not a dead letter)" : DeadLetterCount.Describe(letter))}");
            }

            ResultLine.Write(console, $"{listed.Count} dead letters on {OrderTopology.DeadLetterQueue}");
            return ExitCodes.Done;
        });
}
