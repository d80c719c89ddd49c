using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>A receiver instance in-process, storing into the given blob endpoint.</summary>
public sealed class ReceiverFactory(
    string connectionString, string instance = "express", params (string Key, string? Value)[] settings)
    : WebApplicationFactory<OrderWriter>
{
    public LogRecorder Logs { get; } = new();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.ConfigureLogging(logging => logging.AddProvider(Logs));
        builder.UseSetting("INSTANCE", instance);
        builder.UseSetting("Storage:ConnectionString", connectionString);
        builder.UseSetting("Storage:RequestTimeout", "00:00:05");
        foreach (var (key, value) in settings)
        {
            builder.UseSetting(key, value);
        }
    }
}
