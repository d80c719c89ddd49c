using System.Diagnostics;
using Microsoft.ApplicationInsights;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Messaging;
using OrderDistribution.Receiver;
using OrderDistribution.TestSupport;
using OrderDistribution.TrioHarness;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// One of the trio's apps in a process of its own, as each runs beside its sidecar: this benchmark started again as
/// <c>app &lt;member&gt; &lt;sidecar&gt; &lt;storage&gt; &lt;model&gt; [--console]</c>, hosting only that app (<see
/// cref="AppHost.StartAsync"/>, with the settings <see cref="EmulatedTrioOptions.AppOptions"/> gives each app of an
/// emulated trio) on the app's own GC settings. It says where it listens, then answers each <c>stats</c> line on its
/// standard input with its <see cref="AppStats"/>, and stops when its standard input closes. Given a telemetry
/// connection string it sends its telemetry there, and sends what it holds before each answer. A receiver started
/// with <c>--upload-only</c> only uploads its orders (<see cref="UploadOnlyStore"/>); one started with
/// <c>--discard-orders</c> keeps none (<see cref="DiscardingStore"/>): what it costs is all but the upload.
/// </summary>
public sealed class AppProcess : IAsyncDisposable
{
    private const string ListeningPrefix = "listening ";
    private const string TelemetryConnectionString = "APPLICATIONINSIGHTS_CONNECTION_STRING";
    private const string UploadOnly = "--upload-only";
    private const string DiscardOrders = "--discard-orders";
    private readonly Process _process;
    private readonly SemaphoreSlim _asking = new(1, 1);

    private AppProcess(string member, Process process, Uri address)
    {
        Member = member;
        _process = process;
        Address = address;
    }

    public string Member { get; }

    public Uri Address { get; }

    /// <param name="environment">Settings the app reads from its environment (<c>Section__Key</c>).</param>
    public static async Task<AppProcess> StartAsync(string member, Uri sidecar, string storage, MessagingModel model,
        TimeSpan timeout, string? telemetry = null, IReadOnlyDictionary<string, string>? environment = null,
        ReceiverStore store = ReceiverStore.Configured)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath!)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet")
        {
            start.ArgumentList.Add(typeof(AppProcess).Assembly.Location);
        }

        foreach (var argument in new[] { "app", member, sidecar.ToString(), storage, model.Text() })
        {
            start.ArgumentList.Add(argument);
        }

        if (store != ReceiverStore.Configured)
        {
            start.ArgumentList.Add(store == ReceiverStore.UploadOnly ? UploadOnly : DiscardOrders);
        }

        if (InProcessApps.Console)
        {
            start.ArgumentList.Add("--console");
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        // The apps run on server GC (the web SDK's default, in their runtimeconfig.json); this benchmark does not.
        start.Environment["DOTNET_gcServer"] = "1";
        start.Environment[TelemetryConnectionString] = telemetry;
        var process = Process.Start(start)
            ?? throw new InvalidOperationException($"could not start a process for {member}");
        try
        {
            using var deadline = new CancellationTokenSource(timeout);
            while (await process.StandardOutput.ReadLineAsync(deadline.Token) is { } line)
            {
                if (line.StartsWith(ListeningPrefix, StringComparison.Ordinal))
                {
                    return new AppProcess(member, process, new Uri(line[ListeningPrefix.Length..]));
                }
            }

            await process.WaitForExitAsync(deadline.Token);
            throw new InvalidOperationException(
                $"{member}'s process ended before it listened (exit code {process.ExitCode})");
        }
        catch
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            throw;
        }
    }

    /// <summary>The store a child started with <paramref name="flags"/> keeps its orders in.</summary>
    public static ReceiverStore StoreOf(IReadOnlyCollection<string> flags) =>
        flags.Contains(UploadOnly) ? ReceiverStore.UploadOnly
        : flags.Contains(DiscardOrders) ? ReceiverStore.Discarding
        : ReceiverStore.Configured;

    /// <summary>The child's side: hosts <paramref name="member"/> until standard input closes.</summary>
    public static async Task<int> HostAsync(string member, Uri sidecar, string storage, MessagingModel model,
        ReceiverStore store)
    {
        var logs = new LogRecorder();
        var app = await AppHost.StartAsync(member, new EmulatedTrioOptions
        {
            StorageConnectionString = storage,
            Model = model,
            ConfigureLogging = (_, logging) => InProcessApps.Log(logging, logs, toStandardError: true),
            ConfigureServices = store switch
            {
                ReceiverStore.UploadOnly => (_, services) => services.AddSingleton<IOrderStore, UploadOnlyStore>(),
                ReceiverStore.Discarding => (_, services) => services.AddSingleton<IOrderStore, DiscardingStore>(),
                _ => null,
            },
        }.AppOptions(sidecar));
        Console.WriteLine(ListeningPrefix + AppHost.AddressOf(app));
        while (await Console.In.ReadLineAsync() is { } line)
        {
            if (line == "stats")
            {
                if (Environment.GetEnvironmentVariable(TelemetryConnectionString) is { Length: > 0 })
                {
                    await app.Services.GetRequiredService<TelemetryClient>().FlushAsync(default);
                }

                Console.WriteLine(AppStats.OfThisProcess(logs.PrintedLines()).ToLine());
            }
        }

        await app.StopAsync();
        await app.DisposeAsync();
        return 0;
    }

    public async Task<AppStats> StatsAsync()
    {
        await _asking.WaitAsync();
        try
        {
            await _process.StandardInput.WriteLineAsync("stats");
            await _process.StandardInput.FlushAsync();
            while (await _process.StandardOutput.ReadLineAsync() is { } line)
            {
                if (AppStats.TryParse(line, out var stats))
                {
                    return stats;
                }
            }

            await _process.WaitForExitAsync();
            throw new InvalidOperationException($"{Member}'s process ended (exit code {_process.ExitCode})");
        }
        finally
        {
            _asking.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        _process.StandardInput.Close();
        using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        try
        {
            await _process.WaitForExitAsync(grace.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
        _asking.Dispose();
    }
}
