using System.Diagnostics;
using OrderDistribution.LoadTool.Commands;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>Runs order-load as a user would, capturing what it prints.</summary>
public sealed class Cli
{
    private readonly System.Text.StringBuilder _output = new();

    /// <summary>The command writes from its own threads while a test may read <see cref="Output"/>: one lock for
    /// both (the synchronized writer locks on itself).</summary>
    private readonly TextWriter _writer;

    public Cli() => _writer = TextWriter.Synchronized(new StringWriter(_output));

    public string Output
    {
        get
        {
            lock (_writer)
            {
                return _output.ToString();
            }
        }
    }

    public async Task<int> RunAsync(params string[] args)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(_writer),
        });
        // Wide enough that no summary line wraps.
        console.Profile.Width = 400;
        return await LoadToolCommands.InvokeAsync(console, _writer, args, services => services.UseSidecarEmulator());
    }

    /// <summary>
    /// The real program in a process of its own, as a user starts it (to be killed), its output read and dropped.
    /// </summary>
    public static Process StartProgram(params string[] args) => StartProgram(_ => { }, args);

    /// <summary>The real program in a process of its own, each line it prints (stdout and stderr) given to
    /// <paramref name="printed"/>.</summary>
    public static Process StartProgram(Action<string> printed, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetTempPath(),
            // Tests kill it, and a killed runtime leaves its debugger pipes and diagnostics socket in the temp folder.
            Environment = { ["DOTNET_EnableDiagnostics"] = "0" },
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "order-load.dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var process = Process.Start(start)!;
        process.OutputDataReceived += (_, line) => Print(line.Data);
        process.ErrorDataReceived += (_, line) => Print(line.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return process;

        void Print(string? line)
        {
            if (line is not null)
            {
                printed(line);
            }
        }
    }

    /// <summary>
    /// The real program (order-load.dll beside the tests) in its own process: its exit code and every line it printed,
    /// stdout and stderr.
    /// </summary>
    public static async Task<(int ExitCode, IReadOnlyList<string> Lines)> RunProgramAsync(params string[] args)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetTempPath(),
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "order-load.dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await process.WaitForExitAsync(timeout.Token);
        var lines = (await stdout + await stderr).Split('\n').Select(l => l.TrimEnd('\r'))
            .Where(l => l.Trim().Length > 0).ToList();
        return (process.ExitCode, lines);
    }
}
