using System.Diagnostics;
using Xunit;

namespace OrderDistribution.TestSupport;

/// <summary>
/// An app of the trio (<c>distributor</c> or <c>receiver</c>) started as its own program, as Container Apps starts it:
/// <c>dotnet OrderDistribution.&lt;App&gt;.dll</c> from the test's output, in a folder holding its appsettings.json,
/// with settings as environment variables (<c>Messaging__Model</c>).
/// </summary>
public sealed class AppRun : IAsyncDisposable
{
    private readonly Process _process;
    private readonly Task<string> _output;
    private readonly Task<string> _errors;
    private readonly System.Text.StringBuilder _outputSoFar = new();

    private AppRun(Process process)
    {
        _process = process;
        _output = ReadAsync(process.StandardOutput, _outputSoFar);
        _errors = process.StandardError.ReadToEndAsync();
    }

    /// <summary>What it has written to standard output so far.</summary>
    public string OutputSoFar
    {
        get
        {
            lock (_outputSoFar)
            {
                return _outputSoFar.ToString();
            }
        }
    }

    /// <param name="app"><c>distributor</c> or <c>receiver</c>.</param>
    /// <param name="settings">Configuration keys (<c>Section:Key</c>) or variables, and their values.</param>
    public static AppRun Start(string app, IEnumerable<(string Key, string Value)> settings,
        string url = "http://127.0.0.1:0")
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Path.Combine(AppContext.BaseDirectory, "apps", app),
        };
        start.ArgumentList.Add(
            Path.Combine(AppContext.BaseDirectory, $"OrderDistribution.{char.ToUpperInvariant(app[0])}{app[1..]}.dll"));
        start.Environment["ASPNETCORE_URLS"] = url;
        // Under Stryker's per-test coverage a program holding a mutated assembly answers each test's end through
        // this file; the app would leave one behind that nobody answers, and every later test's coverage would wait
        // it out. Its coverage and the active mutant still reach it through Stryker's other variables.
        start.Environment.Remove("STRYKER_COVERAGE_EPOCH_FILE");
        foreach (var (key, value) in settings)
        {
            start.Environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        }

        return new AppRun(Process.Start(start) ?? throw new InvalidOperationException($"could not start {app}"));
    }

    /// <summary>
    /// Starts <paramref name="app"/> with <paramref name="settings"/>, which it must refuse: it ends by itself with
    /// exit code 2 (<see cref="ServiceDefaults.SettingsCheck.RefusedExitCode"/>), having written exactly one line and
    /// no stack.
    /// </summary>
    /// <returns>That line.</returns>
    public static async Task<string> RefusalAsync(string app, params (string Key, string Value)[] settings)
    {
        await using var run = Start(app, settings);
        var (exitCode, output, errors) = await run.ExitAsync(TimeSpan.FromSeconds(60));
        var all = output + errors;
        Assert.DoesNotContain("Unhandled exception", all, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", all, StringComparison.Ordinal);
        Assert.True(exitCode == ServiceDefaults.SettingsCheck.RefusedExitCode, $"exit code {exitCode}: {all}");
        Assert.Equal("", output);
        return Assert.Single(errors.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }

    /// <summary>
    /// <see cref="RefusalAsync"/> of <paramref name="app"/> started over a content root whose <c>appsettings.json</c>
    /// holds <paramref name="json"/>: a file the app must refuse.
    /// </summary>
    /// <returns>The file's path and the app's one line.</returns>
    public static async Task<(string File, string Line)> RefusalOfSettingsFileAsync(
        string app, string json, params (string Key, string Value)[] settings)
    {
        var folder = Directory.CreateTempSubdirectory($"{app}-settings-");
        try
        {
            var file = Path.Combine(folder.FullName, "appsettings.json");
            await File.WriteAllTextAsync(file, json);
            return (file, await RefusalAsync(app, [.. settings, ("ASPNETCORE_CONTENTROOT", folder.FullName)]));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    /// <summary>
    /// Until the app ends by itself: its exit code and everything it wrote, standard output then error.
    /// </summary>
    /// <exception cref="TimeoutException">It still runs after <paramref name="timeout"/>; it is stopped.</exception>
    public async Task<(int ExitCode, string Output, string Errors)> ExitAsync(TimeSpan timeout)
    {
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            throw new TimeoutException(
                $"still running after {timeout.TotalSeconds:0} s: {await _output}{await _errors}");
        }

        return (_process.ExitCode, await _output, await _errors);
    }

    /// <summary>Stops it and returns what it wrote to standard output.</summary>
    public async Task<string> StopAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
        return await _output;
    }

    private static async Task<string> ReadAsync(StreamReader reader, System.Text.StringBuilder soFar)
    {
        var buffer = new char[4096];
        int read;
        while ((read = await reader.ReadAsync(buffer)) > 0)
        {
            lock (soFar)
            {
                soFar.Append(buffer, 0, read);
            }
        }

        lock (soFar)
        {
            return soFar.ToString();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _process.Dispose();
    }
}
