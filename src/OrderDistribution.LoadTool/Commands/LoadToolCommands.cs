using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Reporting;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// order-load: generate, schedule, watch, clear, and run (all four), for the 10,000-order burst; ceiling (storage
/// alone), report (the models compared, from the results file), in-process, and azure-burst (for
/// scripts/azure-burst.sh). One file per command in Commands/, its options and a handler over the code it drives.
/// Every failure ends as <see cref="FailureReport"/> says.
/// </summary>
public static class LoadToolCommands
{
    /// <summary>
    /// The program: parses and runs, stopped by TERM or Ctrl+C as <see cref="TerminationSignals"/> says; a command
    /// stopped by one exits with its code (143 for TERM, 130 for Ctrl+C).
    /// </summary>
    public static async Task<int> RunProgramAsync(string[] args)
    {
        using var signals = TerminationSignals.Register(code =>
        {
            Console.Error.WriteLine("Stopped at once, and what this command started with it.");
            Environment.Exit(code);
        });
        var exit = await InvokeAsync(ToolConsole.ForStandardOutput(), Console.Error, args, stop: signals.Token);
        return exit == ExitCodes.Cancelled && signals.ExitCode is { } signalled ? signalled : exit;
    }

    /// <summary>Parses and runs, as the program does. A bad command line is refused in one line, exit 2.</summary>
    /// <param name="errors">Where failures go (standard error for the program).</param>
    /// <param name="configurePublishing">
    /// Changes the publishing services before use (tests put a sidecar emulator behind DaprClient).
    /// </param>
    /// <param name="stop">Cancels the command (the program's TERM and Ctrl+C).</param>
    public static async Task<int> InvokeAsync(
        IAnsiConsole console, TextWriter errors, string[] args,
        Action<IServiceCollection>? configurePublishing = null, CancellationToken stop = default)
    {
        // Numbers and times read and written as the docs and scripts give them, whatever the machine's language.
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        var root = Build(console, configurePublishing);
        var parsed = root.Parse(args);
        if (parsed.Errors.Count > 0)
        {
            await errors.WriteLineAsync(ParseFailure(root, parsed));
            return ExitCodes.BadInput;
        }

        try
        {
            // The signals are the caller's: no handling of System.CommandLine's own (see TerminationSignals).
            return await parsed.InvokeAsync(
                new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null },
                stop);
        }
        catch (Exception e)
        {
            return await FailureReport.WriteAsync(errors, e, parsed.GetValue(LoadToolOptions.Verbose));
        }
    }

    public static RootCommand Build(IAnsiConsole console, Action<IServiceCollection>? configurePublishing = null)
    {
        var root = new RootCommand(
            "Schedules a burst of orders and measures the cycle time until the last valid one is a blob.")
        {
            GenerateCommand.Create(console),
            ScheduleCommand.Create(console, configurePublishing),
            WatchCommand.Create(console),
            ClearCommand.Create(console),
            RunCommand.Create(console, configurePublishing),
            CeilingCommand.Create(console),
            ReportCommand.Create(console),
            InProcessCommand.Create(console),
            AzureBurstCommand.Create(console),
            DeadLettersCommand.Create(console),
            LoadToolOptions.Verbose,
        };
        RefuseOptionsAsArguments(root);
        return root;
    }

    /// <summary>
    /// Gives <paramref name="command"/> its handler; TERM or Ctrl+C while it runs ends in <see
    /// cref="ExitCodes.Cancelled"/>.
    /// </summary>
    internal static Command Runs(this Command command, Func<ParseResult, CancellationToken, Task<int>> handler)
    {
        command.SetAction(async (result, ct) =>
        {
            try
            {
                return await handler(result, ct);
            }
            catch (OperationCanceledException e) when (ct.IsCancellationRequested)
            {
                throw new LoadToolException("Cancelled.", null, ExitCodes.Cancelled, e);
            }
        });
        return command;
    }

    /// <summary>
    /// The one line a bad command line gets: an unknown command first; else a value the user typed wrongly, named as
    /// typed (the library's own message names a .NET type); else a word the command does not take; else the first
    /// error. Each with where help is.
    /// </summary>
    private static string ParseFailure(RootCommand root, ParseResult parsed)
    {
        if (parsed.CommandResult.Command is RootCommand)
        {
            const string help = "order-load --help";
            var commands = string.Join(", ", root.Subcommands.Select(c => c.Name));
            return parsed.UnmatchedTokens is [var unknown, ..]
                ? $"'{unknown}' is not an order-load command: use one of {commands} ('{help}' says more)."
                : $"Give a command: one of {commands} ('{help}' says more).";
        }

        // Reading a value may add its error: the list as it is now.
        var errors = parsed.Errors.ToList();
        var command = string.Join(' ', CommandPath(parsed.CommandResult).Select(c => c.Name));
        // An unknown option is taken for the command's argument if it has one, else left unmatched.
        var strays = parsed.CommandResult.Children.OfType<ArgumentResult>().SelectMany(a => a.Tokens)
            .Select(t => t.Value).Concat(parsed.UnmatchedTokens).ToList();
        var line = errors.FirstOrDefault(e => e.SymbolResult is OptionResult { IdentifierToken: not null }) switch
        {
            { SymbolResult: OptionResult { Tokens: [var value] } typed } e when OptionRules.Unreadable(e, typed) =>
                OptionRules.Refusal(typed, value.Value),
            { SymbolResult: OptionResult { Tokens: [] } typed } e when OptionRules.Unreadable(e, typed) =>
                $"{typed.IdentifierToken!.Value} takes {OptionRules.WhatItTakes(typed.Option)}: give one.",
            { } error => error.Message,
            null when strays.FirstOrDefault(IsOption) is { } option => NotAnOption(option, command),
            null when parsed.UnmatchedTokens is [var word, ..] => $"{command} takes no '{word}'.",
            null => errors[0].Message,
        };
        return $"{line.TrimEnd('.')}. See 'order-load {command} --help'.";
    }

    /// <summary>The command's argument takes no word that looks like an option (the library would).</summary>
    private static void RefuseOptionsAsArguments(Command command)
    {
        foreach (var argument in command.Arguments)
        {
            argument.Validators.Add(result =>
            {
                if (result.Tokens.FirstOrDefault(t => IsOption(t.Value)) is { } option)
                {
                    result.AddError(NotAnOption(option.Value, command.Name));
                }
            });
        }

        foreach (var subcommand in command.Subcommands)
        {
            RefuseOptionsAsArguments(subcommand);
        }
    }

    private static bool IsOption(string word) => word.Length > 1 && word[0] == '-';

    private static string NotAnOption(string option, string command) => $"{option} is not an option of {command}.";

    /// <summary>The command and the commands above it, below the root (azure-burst read).</summary>
    private static IEnumerable<Command> CommandPath(CommandResult result)
    {
        var above = result.Parent is CommandResult { Command: not RootCommand } parent ? CommandPath(parent) : [];
        return above.Append(result.Command);
    }
}
