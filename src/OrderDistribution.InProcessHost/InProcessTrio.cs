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
using OrderDistribution.Messaging;

namespace OrderDistribution.InProcessHost;

/// <summary>
/// The distributor and both receivers hosted in this process, each as its own web app on 127.0.0.1 (a free port),
/// built as its Program.cs builds it, with its own settings file, behind a <see cref="SidecarDouble"/>: no Dapr,
/// no broker; storage is the real store the connection string names. The double delivers the ingress queue to the
/// distributor and each receiver's queue to it, in the model of <see cref="InProcessTrioOptions.Model"/>.
/// </summary>
public sealed class InProcessTrio : IAsyncDisposable
{
    private readonly List<WebApplication> _apps;
    private readonly List<HttpClient> _clients;

    private InProcessTrio(SidecarDouble sidecar, List<WebApplication> apps, List<HttpClient> clients, MessagingModel model)
    {
        Sidecar = sidecar;
        _apps = apps;
        _clients = clients;
        Ingress = IngressOf(model);
    }

    public SidecarDouble Sidecar { get; }

    /// <summary>The distributor, then the express and the standard receiver.</summary>
    public IReadOnlyList<WebApplication> Apps => _apps;

    /// <summary>The queue the load tool would schedule on: the ingress topic, or in the bindings model its output binding.</summary>
    public string Ingress { get; }

    /// <summary>The trio's apps, in the order they start and <see cref="Apps"/> lists them: the distributor, then each receiver instance.</summary>
    public static IReadOnlyList<string> Members { get; } = ["distributor", .. OrderTopology.Instances];

    public static async Task<InProcessTrio> StartAsync(InProcessTrioOptions options, CancellationToken cancellationToken = default)
    {
        var sidecar = await SidecarDouble.StartAsync(options.Sidecar);
        var apps = new List<WebApplication>();
        var clients = new List<HttpClient>();
        try
        {
            foreach (var member in Members)
            {
                apps.Add(await StartAppAsync(member, sidecar.Address, options, cancellationToken));
            }

            clients.AddRange(apps.Select(app => ClientOf(LoopbackServer.AddressOf(app))));
            Subscribe(sidecar, options.Model, clients);
            return new InProcessTrio(sidecar, apps, clients, options.Model);
        }
        catch
        {
            await StopAsync(sidecar, apps, clients);
            throw;
        }
    }

    /// <summary>
    /// Starts one of the trio's <see cref="Members"/> as its Program.cs builds it, with its own settings file, behind
    /// the sidecar double at <paramref name="sidecar"/>: in this process, or in a process of its own that hosts only it.
    /// </summary>
    public static async Task<WebApplication> StartAppAsync(string member, Uri sidecar, InProcessTrioOptions options, CancellationToken cancellationToken = default)
    {
        var instance = member == Members[0] ? null : member;
        if (instance is not null && !OrderTopology.Instances.Contains(instance))
        {
            throw new ArgumentException($"'{member}' is not one of the trio's apps ({string.Join(", ", Members)})", nameof(member));
        }

        var app = instance is null ? "distributor" : "receiver";

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
            ["Messaging:Model"] = options.Model.Text(),
            ["Storage:ConnectionString"] = options.StorageConnectionString,
            ["INSTANCE"] = instance,
        };
        foreach (var (key, value) in options.Settings)
        {
            settings[key] = value;
        }

        builder.Configuration.AddInMemoryCollection(settings);
        options.ConfigureLogging?.Invoke(member, builder.Logging);
        builder.AddServiceDefaults();
        if (instance is null)
        {
            builder.AddDistributor();
        }
        else
        {
            builder.AddReceiver();
        }

        builder.Services.Replace(ServiceDescriptor.Singleton<DaprClient>(provider =>
            SidecarDaprClient.Over(sidecar, provider.GetRequiredService<Messaging.Outbound.SidecarOptions>().ApiToken)));
        if (instance is not null)
        {
            options.ConfigureReceiver?.Invoke(instance, builder.Services);
        }

        var web = builder.Build();
        web.UseServiceDefaults();
        if (instance is null)
        {
            web.MapDistributorEndpoints();
        }
        else
        {
            web.MapReceiverEndpoints();
        }

        await web.StartAsync(cancellationToken);
        return web;
    }

    /// <summary>A client of an app at <paramref name="address"/>, as the double delivers to it: no timeout of its own.</summary>
    public static HttpClient ClientOf(Uri address) => new() { BaseAddress = address, Timeout = Timeout.InfiniteTimeSpan };

    /// <summary>
    /// Has the double deliver the ingress queue to the distributor and each receiver's queue to it, in the model of
    /// <paramref name="model"/>; <paramref name="apps"/> are clients of the <see cref="Members"/>, in their order.
    /// </summary>
    public static void Subscribe(SidecarDouble sidecar, MessagingModel model, IReadOnlyList<HttpClient> apps)
    {
        if (model == MessagingModel.Bindings)
        {
            sidecar.Subscribe(OrderTopology.IngressOutputBinding, apps[0], model, OrderTopology.IngressInputBinding);
            for (var i = 0; i < OrderTopology.Instances.Count; i++)
            {
                var instance = OrderTopology.Instances[i];
                sidecar.Subscribe(OrderTopology.OutputBindingOf(instance), apps[i + 1], model, OrderTopology.InputBindingOf(instance));
            }

            return;
        }

        sidecar.Subscribe(OrderTopology.IngressQueue, apps[0], model);
        for (var i = 0; i < OrderTopology.Instances.Count; i++)
        {
            sidecar.Subscribe(OrderTopology.QueueOf(OrderTopology.Instances[i]), apps[i + 1], model);
        }
    }

    /// <summary>The queue the load tool would schedule on in the model of <paramref name="model"/>: the ingress topic, or its output binding.</summary>
    public static string IngressOf(MessagingModel model) =>
        model == MessagingModel.Bindings ? OrderTopology.IngressOutputBinding : OrderTopology.IngressQueue;

    /// <summary>Puts every payload on the ingress queue at once, as the load tool schedules a burst.</summary>
    public void Schedule(IEnumerable<byte[]> payloads) => Sidecar.Enqueue(Ingress, payloads);

    /// <summary>Until each app answers its readiness probe (sidecar reachable, storage reachable) or the time is up.</summary>
    public Task WaitUntilReadyAsync(TimeSpan timeout, CancellationToken cancellationToken) =>
        WaitUntilReadyAsync(_clients, timeout, cancellationToken);

    /// <summary>Until each app behind <paramref name="apps"/> answers its readiness probe, or the time is up.</summary>
    public static async Task WaitUntilReadyAsync(IReadOnlyList<HttpClient> apps, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        foreach (var client in apps)
        {
            try
            {
                while (!await IsReadyAsync(client, deadline.Token))
                {
                    await Task.Delay(100, deadline.Token);
                }
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                throw new TimeoutException($"{client.BaseAddress} did not report ready within {timeout.TotalSeconds:0} s.");
            }
        }
    }

    private static async Task<bool> IsReadyAsync(HttpClient app, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await app.GetAsync(ServiceDefaults.ServiceDefaults.ReadinessPath, cancellationToken);
            return response.IsSuccessStatusCode;
        }
        catch (HttpRequestException)
        {
            return false; // Not listening yet.
        }
    }

    public async ValueTask DisposeAsync() => await StopAsync(Sidecar, _apps, _clients);

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
