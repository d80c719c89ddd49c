using OrderDistribution.LoadTool.Commands;
using OrderDistribution.Messaging;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// Every command that has a model takes it as <c>--model bindings|pubsub-single|pubsub-bulk</c>, and only so.
/// </summary>
public sealed class ModelSpellingTests
{
    public static TheoryData<string, string> CommandsAndSpellings()
    {
        var data = new TheoryData<string, string>();
        foreach (var command in new[] { "run", "schedule", "in-process" })
        {
            foreach (var spelling in MessagingModels.Spellings)
            {
                data.Add(command, spelling);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(CommandsAndSpellings))]
    public void Every_command_with_a_model_takes_each_of_the_three_spellings(string command, string spelling)
    {
        var parsed = LoadToolCommands.Build(AnsiConsole.Console).Parse([command, "--model", spelling]);

        Assert.Empty(parsed.Errors);
        Assert.Contains(LoadToolOptions.Model, parsed.CommandResult.Command.Options);
        Assert.Equal(MessagingModels.Parse(spelling), LoadToolOptions.ModelOf(parsed));
    }

    [Theory]
    [InlineData("run")]
    [InlineData("schedule")]
    [InlineData("in-process")]
    public void Without_model_a_command_takes_the_apps_default_model(string command)
    {
        var parsed = LoadToolCommands.Build(AnsiConsole.Console).Parse([command]);

        Assert.Empty(parsed.Errors);
        Assert.Equal(new MessagingOptions().Model, LoadToolOptions.ModelOf(parsed));
    }

    [Theory]
    [InlineData("run")]
    [InlineData("schedule")]
    [InlineData("in-process")]
    public async Task Another_model_is_refused_with_the_three_spellings_named(string command)
    {
        var cli = new Cli();

        var exit = await cli.RunAsync(command, "--model", "PubSub-Bulk");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("--model takes bindings, pubsub-single or pubsub-bulk, not 'PubSub-Bulk'", cli.Output,
            StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("run")]
    [InlineData("schedule")]
    [InlineData("in-process")]
    public async Task The_help_shows_the_model_in_its_one_spelling_only(string command)
    {
        var (exit, lines) = await Cli.RunProgramAsync(command, "--help");

        Assert.Equal(0, exit);
        var help = string.Join('\n', lines);
        Assert.Contains("--model <bindings|pubsub-single|pubsub-bulk>", help, StringComparison.Ordinal);
        Assert.Contains("default: pubsub-bulk", help, StringComparison.Ordinal);
        Assert.DoesNotContain("PubSubBulk", help, StringComparison.Ordinal);
    }
}
