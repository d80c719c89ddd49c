using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Console;
using OrderDistribution.Distributor;
using OrderDistribution.Receiver;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// The distributor or the receiver alone hosted in-process (the distributor's publishes cost nothing) with its own settings file, log levels included: what
/// they log goes to the recorder, so that a run can count the lines a real one prints, and with
/// <see cref="Console"/> to a console too, as under <c>dapr run</c>, so that a run also pays for printing them.
/// </summary>
public static class InProcessApps
{
    /// <summary>Whether the apps also log to the console (the benchmark's <c>--console</c>).</summary>
    public static bool Console { get; set; }

    /// <param name="toStandardError">The console lines go to standard error: an app's own process, whose standard output answers the benchmark.</param>
    public static void Log(ILoggingBuilder logging, LogRecorder logs, bool toStandardError = false)
    {
        logging.ClearProviders().AddProvider(logs);
        if (Console)
        {
            logging.AddSimpleConsole();
            if (toStandardError)
            {
                logging.Services.Configure<ConsoleLoggerOptions>(console => console.LogToStandardErrorThreshold = LogLevel.Trace);
            }
        }
    }

    public static WebApplicationFactory<OrderRouter> Distributor(LogRecorder logs, Action<IWebHostBuilder> configure) =>
        new WebApplicationFactory<OrderRouter>().WithWebHostBuilder(builder =>
        {
            builder.UseSolutionRelativeContentRoot("src/OrderDistribution.Distributor", "OrderDistribution.slnx");
            builder.ConfigureLogging(logging => Log(logging, logs));
            configure(builder);
        });

    public static WebApplicationFactory<OutboxWriter> Receiver(LogRecorder logs, Action<IWebHostBuilder> configure) =>
        new WebApplicationFactory<OutboxWriter>().WithWebHostBuilder(builder =>
        {
            builder.UseSolutionRelativeContentRoot("src/OrderDistribution.Receiver", "OrderDistribution.slnx");
            builder.ConfigureLogging(logging => Log(logging, logs));
            configure(builder);
        });
}
