using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.Distributor;
using OrderDistribution.Receiver;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.SidecarEmulator.Client;

namespace OrderDistribution.SidecarEmulator.Hosting;

/// <summary>
/// The one way to start an app of the trio in a process: built as its Program.cs builds it, with its own settings file,
/// beside the sidecar <see cref="AppHostOptions.Sidecar"/> names (the emulator, or a real daprd). The emulated trio,
/// the load tool's <c>in-process</c>, the benchmark (its apps in this process or one process each) and the real-parts
/// tests all start the apps here.
/// </summary>
public static class AppHost
{
    public const string Distributor = "distributor";

    /// <summary>The trio's apps, in the order they start: the distributor, then each receiver instance.</summary>
    public static IReadOnlyList<string> Members { get; } = [Distributor, .. OrderTopology.Instances];

    /// <summary>Starts <paramref name="member"/> (one of <see cref="Members"/>) and returns once it listens.</summary>
    public static async Task<WebApplication> StartAsync(string member, AppHostOptions options,
        CancellationToken cancellationToken = default)
    {
        var web = Build(member, options);
        try
        {
            await web.StartAsync(cancellationToken);
            return web;
        }
        catch
        {
            await web.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// What <paramref name="member"/> would stop with at start because of its settings, without starting it: the app
    /// built as <see cref="StartAsync"/> builds it, and the validation its host runs first (<see
    /// cref="IStartupValidator"/>). No host runs, so the answer does not race the host's own disposal.
    /// </summary>
    /// <returns>The exception the app stops with; null when it would start.</returns>
    public static Exception? StartFailureOf(string member, AppHostOptions options)
    {
        try
        {
            using var web = Build(member, options);
            web.Services.GetRequiredService<IStartupValidator>().Validate();
            return null;
        }
        catch (Exception e) when (e is OptionsValidationException or InvalidOperationException)
        {
            return e;
        }
    }

    /// <summary>Where a started app listens (its first address).</summary>
    public static Uri AddressOf(WebApplication app) => LoopbackServer.AddressOf(app);

    /// <summary>
    /// A client of an app at <paramref name="address"/>, as a sidecar delivers to it: no timeout of its own.
    /// </summary>
    public static HttpClient ClientOf(Uri address) =>
        new() { BaseAddress = address, Timeout = Timeout.InfiniteTimeSpan };

    /// <summary>Until each app behind <paramref name="apps"/> answers its readiness probe, or the time is up.</summary>
    public static async Task WaitUntilReadyAsync(IReadOnlyList<HttpClient> apps, TimeSpan timeout,
        CancellationToken cancellationToken)
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
                throw new TimeoutException($"{client.BaseAddress} did not report ready within " +
                    $"{timeout.TotalSeconds:0} s.");
            }
        }
    }

    private static WebApplication Build(string member, AppHostOptions options)
    {
        var instance = member == Distributor ? null : member;
        if (instance is not null && !OrderTopology.Instances.Contains(instance))
        {
            throw new ArgumentException($"'{member}' is not one of the trio's apps ({string.Join(", ", Members)})",
                nameof(member));
        }

        var app = instance is null ? "distributor" : "receiver";
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = LoopbackServer.ReadSettingsOnce, // as the apps' own SettingsCheck reads them
            // By default each app's own appsettings.json, copied beside this library under apps/<app>/ (see the project
            // file).
            ContentRootPath = options.ContentRoot ?? Path.Combine(AppContext.BaseDirectory, "apps", app),
            ApplicationName = $"OrderDistribution.{char.ToUpperInvariant(app[0])}{app[1..]}",
            EnvironmentName = options.EnvironmentName,
        });
        builder.WebHost.UseUrls(options.Url);
        var settings = new Dictionary<string, string?>
        {
            ["DAPR_HTTP_ENDPOINT"] = options.Sidecar.ToString(),
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

        if (options.SidecarIsEmulator)
        {
            builder.Services.UseSidecarEmulator();
        }

        options.ConfigureServices?.Invoke(member, builder.Services);
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

        return web;
    }

    private static async Task<bool> IsReadyAsync(HttpClient app, CancellationToken cancellationToken)
    {
        try
        {
            using var response =
                await app.GetAsync(ServiceDefaults.ServiceDefaultsExtensions.ReadinessPath, cancellationToken);
            return response.IsSuccessStatusCode;
        }
        catch (HttpRequestException)
        {
            return false; // Not listening yet.
        }
    }
}
