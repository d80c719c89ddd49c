using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Console;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// The console's formatter: the simple formatter's layout and options, with every message and exception message
/// escaped (<see cref="LogText"/>), so that text from the wire in any log call stays inside its record. Container Apps
/// stores each console line as a row of its own; a line break in an entry id would otherwise read as a record.
/// </summary>
internal sealed class LogLineFormatter(IServiceProvider services) : ConsoleFormatter(FormatterName)
{
    public const string FormatterName = "escaped";

    private ConsoleFormatter? _simple;

    public override void Write<TState>(in LogEntry<TState> logEntry, IExternalScopeProvider? scopeProvider,
        TextWriter textWriter)
    {
        _simple ??= services.GetServices<ConsoleFormatter>().First(f => f.Name == ConsoleFormatterNames.Simple);
        var message = logEntry.Formatter(logEntry.State, logEntry.Exception);
        var exception = logEntry.Exception is null ? null : new EscapedException(logEntry.Exception);
        _simple.Write(
            new LogEntry<string>(logEntry.LogLevel, logEntry.Category, logEntry.EventId, LogText.Escape(message),
                exception, (m, _) => m),
            scopeProvider,
            textWriter);
    }

    /// <summary>
    /// How the simple formatter prints an exception (its ToString), with each message in the chain escaped.
    /// </summary>
    private sealed class EscapedException(Exception original) : Exception(original.Message)
    {
        public override string ToString()
        {
            var text = original.ToString();
            foreach (var message in Chain(original).Select(e => e.Message).Distinct())
            {
                if (LogText.Escape(message) is var escaped && !ReferenceEquals(escaped, message))
                {
                    text = text.Replace(message, escaped, StringComparison.Ordinal);
                }
            }

            return text;
        }

        private static IEnumerable<Exception> Chain(Exception e) => e is AggregateException aggregate
            ? [e, .. aggregate.InnerExceptions.SelectMany(Chain)]
            : e.InnerException is { } inner ? [e, .. Chain(inner)] : [e];
    }
}

/// <summary>Puts <see cref="LogLineFormatter"/> in place of the simple console formatter.</summary>
internal static class LogLineFormatterExtensions
{
    public static ILoggingBuilder AddEscapedConsole(this ILoggingBuilder logging)
    {
        logging.Services.TryAddEnumerable(ServiceDescriptor.Singleton<ConsoleFormatter, LogLineFormatter>());
        logging.Services.PostConfigure<ConsoleLoggerOptions>(options =>
        {
            if (options.FormatterName is null or ConsoleFormatterNames.Simple)
            {
                options.FormatterName = LogLineFormatter.FormatterName;
            }
        });
        return logging;
    }
}
