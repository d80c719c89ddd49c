using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.TestSupport;

/// <summary>Keeps every line an app logs, for tests that assert what was logged.</summary>
public sealed class LogRecorder : ILoggerProvider
{
    public ConcurrentQueue<LoggedLine> Lines { get; } = new();

    public IEnumerable<LoggedLine> AtLeast(LogLevel level) => Lines.Where(l => l.Level >= level);

    /// <summary>
    /// The lines a console would print for what was logged at <paramref name="level"/> or above so far: each
    /// message's lines, and each line of an exception logged with it (its stack trace).
    /// </summary>
    public int PrintedLines(LogLevel level = LogLevel.Information) =>
        AtLeast(level).Sum(l => LineCount(l.Message) + (l.Exception is null ? 0 : LineCount(l.Exception.ToString())));

    private static int LineCount(string text) => text.Length == 0 ? 0 : text.AsSpan().Count('\n') + 1;

    public ILogger CreateLogger(string categoryName) => new Recorder(this, categoryName);

    public void Dispose()
    {
    }

    private sealed class Recorder(LogRecorder owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Debug;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState,
            Exception?, string> formatter) =>
            owner.Lines.Enqueue(new LoggedLine(logLevel, category, formatter(state, exception), exception));
    }
}
