using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>Runs order-load as a user would, capturing what it prints.</summary>
public sealed class Cli
{
    private readonly System.Text.StringBuilder _output = new();

    public string Output => _output.ToString();

    public async Task<int> RunAsync(params string[] args)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(new StringWriter(_output)),
        });
        return await LoadToolCommands.Build(console).Parse(args).InvokeAsync();
    }
}
