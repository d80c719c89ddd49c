namespace OrderDistribution.LoadTool;

/// <summary>order-load's exit codes; the README lists them.</summary>
public static class ExitCodes
{
    /// <summary>Every order scheduled, every valid order stored (or the step done).</summary>
    public const int Done = 0;

    /// <summary>Orders not scheduled, or valid orders still missing at the timeout.</summary>
    public const int Incomplete = 1;

    /// <summary>Bad input or configuration, including a trio that runs another model than <c>--model</c>.</summary>
    public const int BadInput = 2;

    /// <summary>Storage or the sidecar could not be reached, or did not answer in time.</summary>
    public const int Unreachable = 3;

    /// <summary>Anything else: a fault the tool did not foresee (message printed; <c>--verbose</c> for the stack trace).</summary>
    public const int Unexpected = 4;

    /// <summary>Stopped with Ctrl+C.</summary>
    public const int Cancelled = 130;
}

/// <summary>
/// A failure the tool foresaw: one line saying what failed, one saying what to do. Printed without a stack trace.
/// </summary>
public sealed class LoadToolException(string what, string whatToDo, int exitCode, Exception? inner = null)
    : Exception(what, inner)
{
    public string WhatToDo { get; } = whatToDo;

    public int ExitCode { get; } = exitCode;
}

/// <summary>Words for the causes of failed calls, short enough for one line.</summary>
public static class FailureText
{
    /// <summary>The innermost useful reason: "Connection refused (127.0.0.1:10000)", "no answer within 5 s", …</summary>
    public static string Reason(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case System.Net.Sockets.SocketException socket:
                    return socket.Message;
                case TimeoutException or Polly.Timeout.TimeoutRejectedException or TaskCanceledException:
                    return "no answer in time";
            }
        }

        var innermost = exception;
        while (innermost.InnerException is not null)
        {
            innermost = innermost.InnerException;
        }

        return FirstLine(innermost.Message);
    }

    public static string FirstLine(string text)
    {
        var line = text.AsSpan().Trim();
        var end = line.IndexOfAny('\r', '\n');
        return (end < 0 ? line : line[..end]).TrimEnd('.').ToString();
    }
}
