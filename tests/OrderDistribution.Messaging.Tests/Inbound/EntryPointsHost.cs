using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The messaging core's entry points alone, on 127.0.0.1, with a stub <see cref="IOrderHandler"/> that takes every
/// order it is given: what the entry points decide before any app's handler sees an order.
/// </summary>
public sealed class EntryPointsHost : IAsyncDisposable
{
    private readonly WebApplication _app;

    private EntryPointsHost(WebApplication app, TakingHandler handler, LogRecorder logs)
    {
        _app = app;
        Handler = handler;
        Logs = logs;
        Client = new HttpClient { BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()) };
    }

    public static readonly OrderRoutes Routes = new("q-order-ingress", "q-order-ingress-input");

    public TakingHandler Handler { get; }

    public HttpClient Client { get; }

    public LogRecorder Logs { get; }

    public IServiceProvider Services => _app.Services;

    public static async Task<EntryPointsHost> StartAsync(params (string Key, string? Value)[] settings)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Configuration.AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, s.Value)));
        var logs = new LogRecorder();
        builder.Logging.AddProvider(logs);
        var handler = new TakingHandler();
        builder.Services.AddOrderEntryPoints();
        builder.Services.AddSingleton<IOrderHandler>(handler);
        var app = builder.Build();
        app.MapOrderEntryPoints(Routes);
        await app.StartAsync();
        return new EntryPointsHost(app, handler, logs);
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _app.DisposeAsync();
    }
}
