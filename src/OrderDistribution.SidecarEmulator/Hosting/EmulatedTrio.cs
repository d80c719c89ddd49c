using Microsoft.AspNetCore.Builder;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator.Hosting;

/// <summary>
/// The distributor and both receivers hosted in this process, each as its own web app on 127.0.0.1 (a free port),
/// each started by <see cref="AppHost"/>, behind an <see cref="EmulatedSidecar"/>: no Dapr,
/// no broker; storage is the real store the connection string names. The emulator delivers the ingress queue to the
/// distributor and each receiver's queue to it, in the model of <see cref="EmulatedTrioOptions.Model"/>.
/// </summary>
public sealed class EmulatedTrio : IAsyncDisposable
{
    private readonly List<WebApplication> _apps;
    private readonly List<HttpClient> _clients;

    private EmulatedTrio(EmulatedSidecar sidecar, List<WebApplication> apps, List<HttpClient> clients,
        MessagingModel model)
    {
        Sidecar = sidecar;
        _apps = apps;
        _clients = clients;
        Ingress = IngressOf(model);
        DeadLetters = sidecar.Keep(model == MessagingModel.Bindings
            ? OrderTopology.DeadLetterOutputBinding
            : OrderTopology.DeadLetterQueue);
    }

    public EmulatedSidecar Sidecar { get; }

    /// <summary>The distributor, then the express and the standard receiver.</summary>
    public IReadOnlyList<WebApplication> Apps => _apps;

    /// <summary>
    /// The queue the load tool would schedule on: the ingress queue, or in the bindings model its output binding.
    /// </summary>
    public string Ingress { get; }

    /// <summary>
    /// What the apps kept on the dead-letter queue (<see cref="OrderTopology.DeadLetterQueue"/>, or in the bindings
    /// model its output binding), as they published it.
    /// </summary>
    public IReadOnlyCollection<byte[]> DeadLetters { get; }

    public static async Task<EmulatedTrio> StartAsync(EmulatedTrioOptions options,
        CancellationToken cancellationToken = default)
    {
        var sidecar = await EmulatedSidecar.StartAsync(options.Sidecar);
        var apps = new List<WebApplication>();
        var clients = new List<HttpClient>();
        try
        {
            foreach (var member in AppHost.Members)
            {
                apps.Add(await AppHost.StartAsync(member, options.AppOptions(sidecar.Address), cancellationToken));
            }

            clients.AddRange(apps.Select(app => AppHost.ClientOf(AppHost.AddressOf(app))));
            Subscribe(sidecar, options.Model, clients);
            return new EmulatedTrio(sidecar, apps, clients, options.Model);
        }
        catch
        {
            await StopAsync(sidecar, apps, clients);
            throw;
        }
    }

    /// <summary>
    /// Has the emulator deliver the ingress queue to the distributor and each receiver's queue to it, in the model of
    /// <paramref name="model"/>; <paramref name="apps"/> are clients of the <see cref="AppHost.Members"/>, in their
    /// order.
    /// </summary>
    public static void Subscribe(EmulatedSidecar sidecar, MessagingModel model, IReadOnlyList<HttpClient> apps)
    {
        if (model == MessagingModel.Bindings)
        {
            sidecar.Subscribe(OrderTopology.IngressOutputBinding, apps[0], model, OrderTopology.IngressInputBinding);
            for (var i = 0; i < OrderTopology.Instances.Count; i++)
            {
                var instance = OrderTopology.Instances[i];
                sidecar.Subscribe(OrderTopology.OutputBindingOf(instance), apps[i + 1], model,
                    OrderTopology.InputBindingOf(instance));
            }

            return;
        }

        sidecar.Subscribe(OrderTopology.IngressQueue, apps[0], model);
        for (var i = 0; i < OrderTopology.Instances.Count; i++)
        {
            sidecar.Subscribe(OrderTopology.QueueOf(OrderTopology.Instances[i]), apps[i + 1], model);
        }
    }

    /// <summary>
    /// The queue the load tool would schedule on in the model of <paramref name="model"/>: the ingress queue, or its
    /// output binding.
    /// </summary>
    public static string IngressOf(MessagingModel model) =>
        model == MessagingModel.Bindings ? OrderTopology.IngressOutputBinding : OrderTopology.IngressQueue;

    /// <summary>Puts every payload on the ingress queue at once, as the load tool schedules a burst.</summary>
    public void Schedule(IEnumerable<byte[]> payloads) => Sidecar.Enqueue(Ingress, payloads);

    /// <summary>
    /// Until each app answers its readiness probe (sidecar reachable, storage reachable) or the time is up.
    /// </summary>
    public Task WaitUntilReadyAsync(TimeSpan timeout, CancellationToken cancellationToken) =>
        AppHost.WaitUntilReadyAsync(_clients, timeout, cancellationToken);

    public async ValueTask DisposeAsync() => await StopAsync(Sidecar, _apps, _clients);

    private static async Task StopAsync(EmulatedSidecar sidecar, List<WebApplication> apps, List<HttpClient> clients)
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
