using System.CommandLine;
using Azure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// order-load: generate, schedule, watch, clear, and run (all four), for the 10,000-order burst; ceiling (storage
/// alone) and report (the models compared, from the results log). One file per
/// command in Commands/. Every failure ends in one or two lines (what failed, what to do) and an exit code of
/// <see cref="ExitCodes"/>; the stack trace only with <c>--verbose</c>.
/// </summary>
public static class LoadToolCommands
{
    /// <summary>Gives a command its action, run under the one failure handler.</summary>
    internal delegate Command Wrap(Command command, Func<ParseResult, CancellationToken, Task<int>> action);

    /// <summary>Parses and runs, as the program does. Parse errors exit 2.</summary>
    /// <param name="errors">Where failures go (standard error for the program).</param>
    /// <param name="configurePublishing">Changes the publishing services before use (tests put a sidecar emulator behind DaprClient).</param>
    public static async Task<int> InvokeAsync(
        IAnsiConsole console, TextWriter errors, string[] args, Action<IServiceCollection>? configurePublishing = null)
    {
        // A spelling of the model the tool took before: one line naming the new one.
        if (ModelSpellings.Refusal(args) is { } refusal)
        {
            await errors.WriteLineAsync(refusal);
            return ExitCodes.BadInput;
        }

        var parsed = Build(console, errors, configurePublishing).Parse(args);
        if (parsed.Errors.Count > 0)
        {
            // Every error, so that an unknown command is named ("Unrecognized command or argument 'x'"), not only
            // "Required command was not provided".
            foreach (var error in parsed.Errors.Select(e => e.Message).Distinct())
            {
                await errors.WriteLineAsync(error);
            }

            await errors.WriteLineAsync("See 'order-load --help' (or '<command> --help') for the options.");
            return ExitCodes.BadInput;
        }

        return await parsed.InvokeAsync();
    }

    public static RootCommand Build(IAnsiConsole console, TextWriter errors, Action<IServiceCollection>? configurePublishing = null)
    {
        var root = new RootCommand("Schedules a burst of orders and measures the cycle time until the last valid one is a blob.");
        foreach (var option in CommonOptions.Global)
        {
            option.Recursive = true;
            root.Options.Add(option);
        }

        Command Wrap(Command command, Func<ParseResult, CancellationToken, Task<int>> action)
        {
            command.SetAction(async (result, ct) =>
            {
                try
                {
                    return await action(result, ct);
                }
                catch (Exception e)
                {
                    return await ReportAsync(errors, e, result.GetValue(CommonOptions.Verbose), ct);
                }
            });
            return command;
        }

        root.Subcommands.Add(GenerateCommand.Create(console, Wrap));
        root.Subcommands.Add(ScheduleCommand.Create(console, Wrap, configurePublishing));
        root.Subcommands.Add(WatchCommand.Create(console, Wrap));
        root.Subcommands.Add(ClearCommand.Create(console, Wrap));
        root.Subcommands.Add(RunCommand.Create(console, Wrap, configurePublishing));
        root.Subcommands.Add(CeilingCommand.Create(console, Wrap));
        root.Subcommands.Add(ReportCommand.Create(console, Wrap));
        root.Subcommands.Add(InProcessCommand.Create(console, Wrap));
        return root;
    }

    /// <summary>One or two lines: what failed, and what to do.</summary>
    private static async Task<int> ReportAsync(TextWriter errors, Exception exception, bool verbose, CancellationToken ct)
    {
        var (what, whatToDo, exitCode) = exception switch
        {
            OperationCanceledException when ct.IsCancellationRequested => ("Cancelled.", null, ExitCodes.Cancelled),
            LoadToolException e => (e.Message, e.WhatToDo, e.ExitCode),
            InvalidDataException or FileNotFoundException or OptionsValidationException or ArgumentException or FormatException =>
                (FailureText.FirstLine(exception.Message) + ".", null, ExitCodes.BadInput),
            // Raw socket errors too: HttpClient passes some on unwrapped ("Transport endpoint is not connected").
            _ when exception is RequestFailedException || StoreOutage.IsOutage(exception) =>
                ($"A call to storage or the sidecar failed: {FailureText.Reason(exception)}.",
                    "Check that the trio and Azurite run (scripts/run-local.sh); --verbose shows the call.", ExitCodes.Unreachable),
            _ => ($"order-load failed unexpectedly: {exception.GetType().Name}: {FailureText.FirstLine(exception.Message)}.",
                "Run again with --verbose for the stack trace.", ExitCodes.Unexpected),
        };
        await errors.WriteLineAsync(what);
        if (whatToDo is not null)
        {
            await errors.WriteLineAsync(whatToDo);
        }

        if (verbose)
        {
            await errors.WriteLineAsync(exception.ToString());
        }

        return exitCode;
    }
}
