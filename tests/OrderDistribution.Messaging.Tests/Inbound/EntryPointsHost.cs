using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The messaging core's entry points alone, on 127.0.0.1, with a stub <see cref="IOrderHandler"/> that takes every
/// order it is given: what the entry points decide before any app's handler sees an order.
/// </summary>
public sealed class EntryPointsHost : IAsyncDisposable
{
    private readonly WebApplication _app;

    private EntryPointsHost(WebApplication app, TakingHandler handler)
    {
        _app = app;
        Handler = handler;
        Client = new HttpClient { BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()) };
    }

    public static readonly OrderRoutes Routes = new("q-order-ingress", "q-order-ingress-input");

    public TakingHandler Handler { get; }

    public HttpClient Client { get; }

    public static async Task<EntryPointsHost> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        var handler = new TakingHandler();
        builder.Services.AddDaprMessaging();
        builder.Services.AddSingleton<IOrderHandler>(handler);
        var app = builder.Build();
        app.MapOrderEntryPoints(Routes);
        await app.StartAsync();
        return new EntryPointsHost(app, handler);
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _app.DisposeAsync();
    }

    /// <summary>Takes every order it is handed, marking it done, and keeps it.</summary>
    public sealed class TakingHandler : IOrderHandler
    {
        public ConcurrentQueue<InboundOrder> Orders { get; } = new();

        public Task HandleAsync(IReadOnlyList<InboundOrder> orders, InboundChannel channel, DeliveryProgress progress, CancellationToken cancellationToken)
        {
            foreach (var order in orders)
            {
                Orders.Enqueue(order);
                progress.MarkDone(order.EntryId);
            }

            return Task.CompletedTask;
        }
    }
}
