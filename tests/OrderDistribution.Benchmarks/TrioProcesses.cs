using OrderDistribution.Messaging;
using OrderDistribution.TrioHarness;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// The trio in one model (bulk unless told) with each app in a fresh process of its own (<see cref="AppProcess"/>),
/// started at once as a new revision starts them, behind a sidecar emulator in this process: each app pays its own
/// start-up and compiles its own code, on the cores the others, the emulator and the store also need.
/// </summary>
public sealed class TrioProcesses : IAsyncDisposable
{
    private readonly List<AppProcess> _apps;
    private readonly List<HttpClient> _clients;

    private TrioProcesses(EmulatedSidecar sidecar, List<AppProcess> apps, List<HttpClient> clients,
        MessagingModel model)
    {
        Sidecar = sidecar;
        Model = model;
        _apps = apps;
        _clients = clients;
    }

    /// <summary>From starting the processes until the last app reported ready.</summary>
    public TimeSpan StartUp { get; private set; }

    public EmulatedSidecar Sidecar { get; }

    public MessagingModel Model { get; }

    /// <summary>The distributor, then the express and the standard receiver.</summary>
    public IReadOnlyList<AppProcess> Apps => _apps;

    /// <summary>Starts the three processes, and returns when each app has reported ready.</summary>
    /// <param name="recordRequests">The emulator keeps every request the apps make (<see
    /// cref="EmulatedSidecar.Requests"/>).</param>
    /// <param name="telemetry">Where the apps send their telemetry (<see cref="TelemetryIngestion"/>); none: they build
    /// it and send nothing, as without a connection string.</param>
    public static async Task<TrioProcesses> StartAsync(string storage, TimeSpan timeout,
        MessagingModel model = MessagingModel.PubSubBulk, bool recordRequests = false, string? telemetry = null)
    {
        var sidecar = await EmulatedSidecar.StartAsync(new EmulatedSidecarOptions
        {
            RecordRequests = recordRequests,
            ConcurrentSingleRequests = new TrioRunOptions().ConcurrentSingleRequests,
        });
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var starting = AppHost.Members.Select(member =>
            AppProcess.StartAsync(member, sidecar.Address, storage, model, timeout, telemetry)).ToList();
        try
        {
            await Task.WhenAll(starting);
        }
        catch
        {
            foreach (var started in starting.Where(s => s.IsCompletedSuccessfully))
            {
                await started.Result.DisposeAsync();
            }

            await sidecar.DisposeAsync();
            throw;
        }

        var apps = starting.Select(s => s.Result).ToList();
        var clients = apps.Select(app => AppHost.ClientOf(app.Address)).ToList();
        var trio = new TrioProcesses(sidecar, apps, clients, model);
        try
        {
            EmulatedTrio.Subscribe(sidecar, model, clients);
            await AppHost.WaitUntilReadyAsync(clients, timeout, default);
            trio.StartUp = clock.Elapsed;
            return trio;
        }
        catch
        {
            await trio.DisposeAsync();
            throw;
        }
    }

    /// <summary>Puts every payload on the ingress queue at once, as the load tool schedules a burst.</summary>
    public void Schedule(IEnumerable<byte[]> payloads) => Sidecar.Enqueue(EmulatedTrio.IngressOf(Model), payloads);

    public async Task<IReadOnlyList<AppStats>> StatsAsync() =>
        await Task.WhenAll(_apps.Select(app => app.StatsAsync()));

    public async ValueTask DisposeAsync()
    {
        await Sidecar.DisposeAsync();
        _clients.ForEach(c => c.Dispose());
        foreach (var app in _apps)
        {
            await app.DisposeAsync();
        }
    }
}
