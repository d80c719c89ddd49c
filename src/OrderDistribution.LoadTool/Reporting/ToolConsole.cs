using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The console the tool writes to: the terminal as Spectre.Console finds it, or plain lines for a pipe or file.
/// </summary>
public static class ToolConsole
{
    /// <summary>
    /// Wide enough that no line of the tool wraps in a pipe (Spectre.Console takes a pipe as 80 columns).
    /// </summary>
    public const int PipeWidth = 1_000;

    public static IAnsiConsole ForStandardOutput() =>
        Console.IsOutputRedirected ? Plain(Console.Out) : AnsiConsole.Console;

    /// <summary>No colour codes, no live redraws, no wrapping: what a script or a log file reads.</summary>
    public static IAnsiConsole Plain(TextWriter output)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = PipeWidth;
        return console;
    }
}
