using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace OrderDistribution.TestSupport;

/// <summary>
/// What an app stops with at start because of its settings: its registrations, as its Program makes them, built, and
/// the validation its host runs first when it starts (<see cref="IStartupValidator"/>). No host runs, so the answer
/// does not race the host's own disposal: a WebApplicationFactory whose app fails to start sometimes surfaces an
/// ObjectDisposedException instead of the app's error.
/// </summary>
public static class AppStart
{
    /// <returns>The exception the app stops with; null when it would start.</returns>
    public static Exception? FailureOf(Action<WebApplicationBuilder> register, params (string Key, string? Value)[] settings)
    {
        var builder = WebApplication.CreateBuilder();
        builder.Configuration.AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, s.Value)));
        try
        {
            register(builder);
            using var app = builder.Build();
            app.Services.GetRequiredService<IStartupValidator>().Validate();
            return null;
        }
        catch (Exception e) when (e is OptionsValidationException or InvalidOperationException)
        {
            return e;
        }
    }
}
