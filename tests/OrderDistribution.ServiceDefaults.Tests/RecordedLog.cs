using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>Keeps each line logged at <paramref name="minimum"/> or above, with its level.</summary>
internal sealed class RecordedLog<T>(LogLevel minimum = LogLevel.Information) : ILogger<T>
{
    private readonly ConcurrentQueue<(LogLevel Level, string Message)> _lines = new();

    public IReadOnlyList<(LogLevel Level, string Message)> Lines => [.. _lines];

    public IEnumerable<string> Messages => Lines.Select(l => l.Message).ToList();

    /// <summary>The levels of the warnings and errors, in order.</summary>
    public IEnumerable<LogLevel> Levels => Lines.Where(l => l.Level >= LogLevel.Warning).Select(l => l.Level);

    public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => logLevel >= minimum;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception,
        Func<TState, Exception?, string> formatter)
    {
        if (IsEnabled(logLevel))
        {
            _lines.Enqueue((logLevel, formatter(state, exception)));
        }
    }
}
