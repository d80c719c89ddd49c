using System.Diagnostics;
using System.Reflection;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// A wrong setting stops an app before it starts, in one line on standard error that names the setting, what is wrong
/// with it and what to set, and exit code <see cref="RefusedExitCode"/>: not a crash with a stack trace, which a
/// container log buries. The stack follows the line when <c>Logging:LogLevel:Default</c> is Debug or Trace.
/// </summary>
public static class SettingsCheck
{
    public const int RefusedExitCode = 2;

    /// <summary>
    /// The host argument that has it read its settings files once, without a file watcher: each watcher takes one of
    /// Linux's 128 inotify instances per user.
    /// </summary>
    public const string ReadSettingsOnce = "--hostBuilder:reloadConfigOnChange=false";

    /// <summary>
    /// Creates the app's builder, which reads its configuration files once, without watching them; a file that cannot
    /// be read (not JSON, a key twice) is refused as a wrong setting is, in one line naming the file and where it
    /// breaks.
    /// </summary>
    /// <returns>Null, after writing the line, when a configuration file is refused.</returns>
    public static WebApplicationBuilder? CreateBuilderIfSettingsAreReadable(string[] args, TextWriter? error = null)
    {
        try
        {
            // A replica's settings change with a new revision, never in place: no watcher for a reload that never
            // comes. The app's own arguments may still ask for one.
            return WebApplication.CreateBuilder([ReadSettingsOnce, .. args]);
        }
        catch (InvalidDataException e)
        {
            // Before the builder exists, the app's name is the one it would have given: its entry assembly's.
            var app = Assembly.GetEntryAssembly()?.GetName().Name ?? "the app";
            (error ?? Console.Error).WriteLine($"{app} cannot start: {LogText.Escape(Problem(e))}");
            return null;
        }
    }

    /// <summary>Builds the app and validates every setting it validates at start, before the host runs.</summary>
    /// <returns>Null, after writing the line, when a setting is refused.</returns>
    public static WebApplication? BuildIfSettingsAreValid(this WebApplicationBuilder builder, TextWriter? error = null)
    {
        try
        {
            var app = builder.Build();
            app.Services.GetRequiredService<IStartupValidator>().Validate();
            return app;
        }
        catch (Exception e) when (IsRefusedSetting(e))
        {
            error ??= Console.Error;
            error.WriteLine($"{builder.Environment.ApplicationName} cannot start: {LogText.Escape(Problem(e))}");
            if (builder.Configuration["Logging:LogLevel:Default"] is { } level
                && (level.Equals("Debug", StringComparison.OrdinalIgnoreCase)
                    || level.Equals("Trace", StringComparison.OrdinalIgnoreCase)))
            {
                error.WriteLine(e);
            }

            return null;
        }
    }

    /// <summary>
    /// A failed validation, or a failure while options were made from configuration (a configure step's).
    /// </summary>
    private static bool IsRefusedSetting(Exception e) => e is OptionsValidationException
        || (e is InvalidOperationException && new StackTrace(e).GetFrames().Any(frame =>
            frame.GetMethod()?.DeclaringType is { IsGenericType: true } type
            && type.GetGenericTypeDefinition() == typeof(OptionsFactory<>)));

    /// <summary>Every failure, in one sentence each; a failure of another kind with what caused it.</summary>
    private static string Problem(Exception e) => e switch
    {
        OptionsValidationException invalid => string.Join("; ", invalid.Failures),
        { InnerException: { } inner } when !e.Message.Contains(inner.Message, StringComparison.Ordinal) =>
            $"{e.Message} {Problem(inner)}",
        _ => e.Message,
    };
}
