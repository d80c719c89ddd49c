using Dapr.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using OrderDistribution.Contracts;
using OrderDistribution.Distributor;
using OrderDistribution.LocalRun;
using OrderDistribution.Receiver;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.InProcessHost;

/// <summary>
/// The distributor and both receivers hosted in this process, each as its own web app on 127.0.0.1 (a free port),
/// built as its Program.cs builds it, with its own settings file, behind a <see cref="SidecarDouble"/>: no Dapr,
/// no broker; storage is the real store the connection string names. The double delivers the ingress queue to the
/// distributor and each receiver's queue to it, in the model of <see cref="InProcessTrioOptions.Style"/>.
/// </summary>
public sealed class InProcessTrio : IAsyncDisposable
{
    private readonly List<WebApplication> _apps;
    private readonly List<HttpClient> _clients;

    private InProcessTrio(SidecarDouble sidecar, List<WebApplication> apps, List<HttpClient> clients, DeliveryStyle style)
    {
        Sidecar = sidecar;
        _apps = apps;
        _clients = clients;
        Ingress = style == DeliveryStyle.Binding ? OrderTopology.IngressOutputBinding : OrderTopology.IngressQueue;
    }

    public SidecarDouble Sidecar { get; }

    /// <summary>The distributor, then the express and the standard receiver.</summary>
    public IReadOnlyList<WebApplication> Apps => _apps;

    /// <summary>The queue the load tool would schedule on: the ingress topic, or in the bindings model its output binding.</summary>
    public string Ingress { get; }

    public static async Task<InProcessTrio> StartAsync(InProcessTrioOptions options, CancellationToken cancellationToken = default)
    {
        var sidecar = await SidecarDouble.StartAsync(options.Sidecar);
        var apps = new List<WebApplication>();
        var clients = new List<HttpClient>();
        try
        {
            var mode = options.Style == DeliveryStyle.Single ? "single" : "bulk";
            apps.Add(await StartAppAsync("distributor", sidecar.Address, mode, options, null, builder => builder.AddDistributor(),
                app => app.MapDistributorEndpoints(), cancellationToken));
            foreach (var instance in OrderTopology.Instances)
            {
                apps.Add(await StartAppAsync("receiver", sidecar.Address, mode, options, instance, builder => builder.AddReceiver(),
                    app => app.MapReceiverEndpoints(), cancellationToken));
            }

            clients.AddRange(apps.Select(app => new HttpClient { BaseAddress = LoopbackServer.AddressOf(app), Timeout = Timeout.InfiniteTimeSpan }));
            var trio = new InProcessTrio(sidecar, apps, clients, options.Style);
            trio.Subscribe(options.Style);
            return trio;
        }
        catch
        {
            await StopAsync(sidecar, apps, clients);
            throw;
        }
    }

    /// <summary>Puts every payload on the ingress queue at once, as the load tool schedules a burst.</summary>
    public void Schedule(IEnumerable<byte[]> payloads)
    {
        foreach (var payload in payloads)
        {
            Sidecar.Enqueue(Ingress, payload);
        }
    }

    /// <summary>Until each app answers its readiness probe (sidecar reachable, storage reachable) or the time is up.</summary>
    public async Task WaitUntilReadyAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        foreach (var client in _clients)
        {
            while (true)
            {
                try
                {
                    using var response = await client.GetAsync(ServiceDefaults.ServiceDefaults.ReadinessPath, deadline.Token);
                    if (response.IsSuccessStatusCode)
                    {
                        break;
                    }
                }
                catch (HttpRequestException)
                {
                    // Not listening yet.
                }
                catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
                {
                    throw new TimeoutException($"{client.BaseAddress} did not report ready within {timeout.TotalSeconds:0} s.");
                }

                await Task.Delay(100, deadline.Token);
            }
        }
    }

    public async ValueTask DisposeAsync() => await StopAsync(Sidecar, _apps, _clients);

    private void Subscribe(DeliveryStyle style)
    {
        if (style == DeliveryStyle.Binding)
        {
            Sidecar.Subscribe(OrderTopology.IngressOutputBinding, _clients[0], style, OrderTopology.IngressInputBinding);
            for (var i = 0; i < OrderTopology.Instances.Count; i++)
            {
                var instance = OrderTopology.Instances[i];
                Sidecar.Subscribe(OrderTopology.OutputBindingOf(instance), _clients[i + 1], style, OrderTopology.InputBindingOf(instance));
            }

            return;
        }

        Sidecar.Subscribe(OrderTopology.IngressQueue, _clients[0], style);
        for (var i = 0; i < OrderTopology.Instances.Count; i++)
        {
            Sidecar.Subscribe(OrderTopology.QueueOf(OrderTopology.Instances[i]), _clients[i + 1], style);
        }
    }

    private static async Task<WebApplication> StartAppAsync(
        string app, Uri sidecar, string mode, InProcessTrioOptions options, string? instance,
        Action<WebApplicationBuilder> add, Action<WebApplication> map, CancellationToken cancellationToken)
    {
        // Each app's own appsettings.json, copied beside this library under apps/<app>/ (see the project file).
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            ContentRootPath = Path.Combine(AppContext.BaseDirectory, "apps", app),
            ApplicationName = $"OrderDistribution.{char.ToUpperInvariant(app[0])}{app[1..]}",
            EnvironmentName = Environments.Production,
        });
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        var settings = new Dictionary<string, string?>
        {
            ["DAPR_HTTP_ENDPOINT"] = sidecar.ToString(),
            ["Messaging:PubSubMode"] = mode,
            ["Storage:ConnectionString"] = options.StorageConnectionString,
            ["INSTANCE"] = instance,
        };
        foreach (var (key, value) in options.Settings)
        {
            settings[key] = value;
        }

        builder.Configuration.AddInMemoryCollection(settings);
        options.ConfigureLogging?.Invoke(instance ?? app, builder.Logging);
        builder.AddServiceDefaults();
        add(builder);
        builder.Services.Replace(ServiceDescriptor.Singleton<DaprClient>(provider =>
            SidecarDaprClient.Over(sidecar, provider.GetRequiredService<Messaging.Outbound.DaprSidecarOptions>().ApiToken)));
        if (instance is not null)
        {
            options.ConfigureReceiver?.Invoke(instance, builder.Services);
        }

        var web = builder.Build();
        web.UseServiceDefaults();
        map(web);
        await web.StartAsync(cancellationToken);
        return web;
    }

    private static async Task StopAsync(SidecarDouble sidecar, List<WebApplication> apps, List<HttpClient> clients)
    {
        await sidecar.DisposeAsync();
        clients.ForEach(c => c.Dispose());
        foreach (var app in apps)
        {
            await app.StopAsync();
            await app.DisposeAsync();
        }
    }
}
