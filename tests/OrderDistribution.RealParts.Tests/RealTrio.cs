using System.Globalization;
using System.Net;
using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The trio on real parts, as <c>scripts/run-local.sh model mode</c> runs it: that script's run file (app ids,
/// appMaxConcurrency, env), the repository's component folder with the started brokers' addresses, a daprd per
/// app, and the apps hosted in the test process. Only the ports differ: every one is a free one.
/// </summary>
public sealed class RealTrio : IAsyncDisposable
{
    /// <summary>The storage the run files name: the local Azurite on its fixed ports.</summary>
    private const string LocalStorage = "UseDevelopmentStorage=true";

    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(2);

    /// <summary>
    /// The limit of a test that runs a trio (its start, two bursts of at most 180 s each, its stop): a wait that never
    /// ends fails the test instead of holding the run.
    /// </summary>
    public const int TestTimeoutMilliseconds = 10 * 60 * 1000;

    private readonly IRealPartsBackend _backend;
    private readonly string _workFolder;
    private readonly Dictionary<string, (RunningSidecar Sidecar, InProcessApp App)> _apps = [];

    private RealTrio(IRealPartsBackend backend, StartedParts parts, MessagingModel model, string? apiToken,
        string workFolder)
    {
        _backend = backend;
        Parts = parts;
        Model = model;
        ApiToken = apiToken;
        _workFolder = workFolder;
    }

    public StartedParts Parts { get; }

    public MessagingModel Model { get; }

    public string? ApiToken { get; }

    public string Description => _backend.Description;

    public RunningSidecar DistributorSidecar => _apps[Contract.Distributor].Sidecar;

    public InProcessApp App(string appId) => _apps[appId].App;

    /// <summary>
    /// The trio on this machine's back-end for the running test, named in the test's output; the test is skipped,
    /// with the line saying what is missing, where there is none.
    /// </summary>
    /// <param name="apiToken">Set as DAPR_API_TOKEN of every sidecar and app, as Container Apps can.</param>
    public static async Task<RealTrio> StartAsync(MessagingModel model, string? apiToken = null)
    {
        var trio = await StartAsync(await RealParts.RequireAsync(model), model, apiToken,
            TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine(trio.Description);
        return trio;
    }

    /// <summary>The trio on <paramref name="backend"/>, which it owns from here on, whether it starts or not.</summary>
    public static async Task<RealTrio> StartAsync(
        IRealPartsBackend backend, MessagingModel model, string? apiToken, CancellationToken ct)
    {
        RealTrio? trio = null;
        try
        {
            var runFile = DaprRunFile.LoadFullPath(await RunFiles.RenderAsync(model));
            var parts = await backend.StartPartsAsync(model, ct);
            trio = new RealTrio(backend, parts, model, apiToken,
                Directory.CreateTempSubdirectory("real-trio-").FullName);
            foreach (var app in runFile.Apps)
            {
                await trio.StartAppAsync(app, ct);
            }

            await trio.WaitUntilReadyAsync(ct);
            return trio;
        }
        catch
        {
            await (trio ?? (IAsyncDisposable)backend).DisposeAsync();
            throw;
        }
    }

    /// <summary>Where this trio's sidecars and apps logged, written as it stops (<see cref="TrioLogs"/>).</summary>
    public TrioLogs Logs { get; } = TrioLogs.Create();

    /// <summary>
    /// Apps first (nothing more is delivered), then each sidecar's and app's log into <see cref="Logs"/>, then every
    /// part the back-end started, then the rendered files.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        foreach (var (_, app) in _apps.Values)
        {
            await app.DisposeAsync();
        }

        try
        {
            foreach (var (sidecar, app) in _apps.Values)
            {
                await Logs.WriteAsync($"daprd-{app.AppId}", await sidecar.LogAsync());
                await Logs.WriteAsync($"app-{app.AppId}", string.Join('\n', app.Logs.Lines.Select(Line)));
            }
        }
        finally
        {
            try
            {
                await _backend.DisposeAsync();
            }
            finally
            {
                Directory.Delete(_workFolder, recursive: true);
            }
        }
    }

    private static string Line(LoggedLine line) =>
        $"{line.Level} {line.Category}: {line.Message}{(line.Exception is null ? "" : $"\n{line.Exception}")}";

    private async Task StartAppAsync(DaprRunFile.App app, CancellationToken ct)
    {
        var appPort = Azurite.FreePort();
        var sidecar = await _backend.StartSidecarAsync(SidecarLaunch.Of(app, appPort, Rendered, ApiToken), ct);
        _apps[app.Id] = (sidecar,
            await InProcessApp.StartAsync(app.Id, app.DirPath, appPort, SettingsOf(app, appPort, sidecar)));
    }

    /// <summary>
    /// The run file's env, with the started storage for the local one, and what <c>dapr run</c> adds.
    /// </summary>
    private Dictionary<string, string> SettingsOf(DaprRunFile.App app, int appPort, RunningSidecar sidecar)
    {
        var settings = app.Env
            .Where(e => e.Key != "ASPNETCORE_URLS")
            .ToDictionary(e => e.Key, e => e.Value == LocalStorage ? Parts.StorageConnectionString : e.Value);
        settings["APP_ID"] = app.Id;
        settings["APP_PORT"] = appPort.ToString(CultureInfo.InvariantCulture);
        settings["DAPR_HTTP_ENDPOINT"] = sidecar.HttpEndpoint.ToString();
        settings["DAPR_GRPC_ENDPOINT"] = sidecar.GrpcEndpoint.ToString();
        if (ApiToken is not null)
        {
            settings["DAPR_API_TOKEN"] = ApiToken;
        }

        return settings;
    }

    /// <summary>The rendered copy of a component folder, made once per folder.</summary>
    private string Rendered(string folder)
    {
        var target = Path.Combine(_workFolder, Path.GetFileName(Path.TrimEndingDirectorySeparator(folder)));
        if (!Directory.Exists(target))
        {
            ComponentFolder.Render(folder, target, Parts.Components);
        }

        return target;
    }

    private async Task WaitUntilReadyAsync(CancellationToken ct)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = DateTime.UtcNow + StartTimeout;
        var waiting = _apps.Values
            .SelectMany(a =>
                new[] { (Url: new Uri(a.Sidecar.HttpEndpoint, "v1.0/healthz"), Sidecar: true),
                (Url: new Uri(a.App.Address, Contract.ReadinessPath), Sidecar: false) })
            .ToList();
        while (waiting.Count > 0)
        {
            if (DateTime.UtcNow > deadline)
            {
                var logs = await Task.WhenAll(_apps.Values
                    .Where(a => waiting.Any(w => w.Url.Authority == a.Sidecar.HttpEndpoint.Authority))
                    .Select(async a => $"daprd of {a.App.AppId}:\n{await a.Sidecar.LogTailAsync()}"));
                throw new TimeoutException(
                    $"Not ready within {StartTimeout}: {string.Join(", ", waiting.Select(w => w.Url))} " +
                    $"({Description}).\n{string.Join('\n', logs)}");
            }

            foreach (var (sidecar, app) in _apps.Values)
            {
                if (await sidecar.ExitAsync() is { } exit)
                {
                    throw new InvalidOperationException(
                        $"The daprd of {app.AppId} {exit} ({Description}):\n{await sidecar.LogTailAsync()}");
                }
            }

            var answers = await Task.WhenAll(
                waiting.Select(async w => (w, Ready: await AnswersAsync(http, w.Url, w.Sidecar, ct))));
            waiting = answers.Where(a => !a.Ready).Select(a => a.w).ToList();
            if (waiting.Count > 0)
            {
                await Task.Delay(500, ct);
            }
        }
    }

    private async Task<bool> AnswersAsync(HttpClient http, Uri url, bool sidecar, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        if (sidecar && ApiToken is not null)
        {
            request.Headers.Add("dapr-api-token", ApiToken);
        }

        try
        {
            using var response = await http.SendAsync(request, ct);
            return response.StatusCode is HttpStatusCode.OK or HttpStatusCode.NoContent;
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException && !ct.IsCancellationRequested)
        {
            return false;
        }
    }
}
