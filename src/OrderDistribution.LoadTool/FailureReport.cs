using Azure;
using Microsoft.Extensions.Options;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.LoadTool;

/// <summary>
/// How a command that failed ends: one or two lines (what failed, what to do) and an exit code of
/// <see cref="ExitCodes"/>; the stack trace only when asked for.
/// </summary>
public static class FailureReport
{
    /// <summary>One or two lines: what failed, and what to do.</summary>
    public static async Task<int> WriteAsync(TextWriter errors, Exception exception, bool verbose)
    {
        var (what, whatToDo, exitCode) = exception switch
        {
            LoadToolException e => (e.Message, e.WhatToDo, e.ExitCode),
            InvalidDataException or FileNotFoundException or OptionsValidationException or ArgumentException
                or FormatException => (FailureText.FirstLine(exception.Message) + ".", null, ExitCodes.BadInput),
            // Raw socket errors too: HttpClient passes some on unwrapped ("Transport endpoint is not connected").
            _ when exception is RequestFailedException || StoreOutage.IsOutage(exception) =>
                ($"A call to storage or the sidecar failed: {FailureText.Reason(exception)}.",
                    "Check that the trio and Azurite run (scripts/run-local.sh); --verbose shows the call.",
                    ExitCodes.Unreachable),
            _ => ($"order-load failed unexpectedly: {exception.GetType().Name}: " +
                  $"{FailureText.FirstLine(exception.Message)}.",
                "Run again with --verbose for the stack trace.", ExitCodes.Unexpected),
        };
        // A message may carry text from the wire (a sidecar's app id, a broker's error): it never starts a line.
        await errors.WriteLineAsync(LogText.Escape(what));
        if (whatToDo is not null)
        {
            await errors.WriteLineAsync(LogText.Escape(whatToDo));
        }

        if (verbose)
        {
            await errors.WriteLineAsync(exception.ToString());
        }

        return exitCode;
    }
}
