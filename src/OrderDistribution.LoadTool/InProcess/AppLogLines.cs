using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;
using Spectre.Console;

namespace OrderDistribution.LoadTool.InProcess;

/// <summary>
/// The in-process apps' logs on the tool's console, one line each (<c>warn: express RequestRun: ...</c>): written
/// through the console the live display draws on, so that each line lands above the progress bar instead of inside
/// it, where its redraw would erase it. Messages are escaped as the apps' own console escapes them.
/// </summary>
internal sealed class AppLogLines(IAnsiConsole console, string member) : ILoggerProvider
{
    /// <summary>
    /// Routes <paramref name="logging"/> of <paramref name="member"/> here instead of the process's console.
    /// </summary>
    public static void Use(IAnsiConsole console, string member, ILoggingBuilder logging)
    {
        logging.ClearProviders();
        logging.AddProvider(new AppLogLines(console, member));
    }

    public ILogger CreateLogger(string categoryName) =>
        new Logger(console, $"{member} {categoryName[(categoryName.LastIndexOf('.') + 1)..]}");

    public void Dispose()
    {
    }

    private sealed class Logger(IAnsiConsole console, string source) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel != LogLevel.None;

        public void Log<TState>(
            LogLevel logLevel, EventId eventId, TState state, Exception? exception,
            Func<TState, Exception?, string> formatter)
        {
            var cause = exception is null ? "" : $" ({exception.GetType().Name}: {exception.Message})";
            var message = formatter(state, exception) + cause;
            console.Write(new Text($"{Label(logLevel)}: {source}: {LogText.Escape(message)}\n", Style(logLevel)));
        }

        private static string Label(LogLevel level) => level switch
        {
            LogLevel.Trace => "trce",
            LogLevel.Debug => "dbug",
            LogLevel.Information => "info",
            LogLevel.Warning => "warn",
            LogLevel.Error => "fail",
            _ => "crit",
        };

        private static Style Style(LogLevel level) => level >= LogLevel.Error
            ? new Style(Color.Red)
            : level == LogLevel.Warning ? new Style(Color.Yellow) : Spectre.Console.Style.Plain;
    }
}
