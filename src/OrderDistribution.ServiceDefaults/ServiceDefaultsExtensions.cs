using System.Security.Cryptography;
using System.Text;
using Azure.Identity;
using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>What every app of the trio sets up the same way: telemetry, health, errors, the app API token.</summary>
public static class ServiceDefaultsExtensions
{
    public const string LivenessPath = "/alive";
    public const string ReadinessPath = "/health";
    public const string AppApiTokenHeader = "dapr-api-token";

    /// <summary>
    /// The client id of the user-assigned identity the app sends its telemetry as; unset: the connection string alone.
    /// </summary>
    public const string ManagedIdentityClientIdKey = "ApplicationInsights:ManagedIdentityClientId";

    private const string LiveTag = "live";

    public static IHostApplicationBuilder AddServiceDefaults(this IHostApplicationBuilder builder)
    {
        var roleName = builder.Configuration["CONTAINER_APP_NAME"] is { Length: > 0 } containerApp
            ? containerApp
            : builder.Configuration["APP_ID"] is { Length: > 0 } appId ? appId : builder.Environment.ApplicationName;
        // Reads the ApplicationInsights section: adaptive sampling is off there, so the cycle time queries see
        // every event and, unless Telemetry:RequestSamplingPercentage says otherwise, the first and the last request.
        builder.Services.AddApplicationInsightsTelemetry();
        builder.Services.AddApplicationInsightsTelemetryProcessor<FailedDependenciesOnly>();
        builder.Services.AddSettings<TelemetryOptions>(TelemetryOptions.Section);
        builder.Services.AddOptions<TelemetryConfiguration>().Configure<IOptions<TelemetryOptions>>(
            (configuration, telemetry) =>
                RequestSampling.Use(configuration, telemetry.Value.RequestSamplingPercentage));
        // In Azure, Application Insights takes Entra ID only (infra/modules/monitoring.bicep): the SDK signs in as the
        // app's own identity, which holds Monitoring Metrics Publisher there.
        if (builder.Configuration[ManagedIdentityClientIdKey] is { Length: > 0 } clientId)
        {
            builder.Services.Configure<TelemetryConfiguration>(configuration =>
                configuration.SetAzureTokenCredential(
                    new ManagedIdentityCredential(ManagedIdentityId.FromUserAssignedClientId(clientId))));
        }

        // Polly logs every attempt, and every timeout with its stack trace: hundreds of thousands of lines in a
        // burst with faults, on the CPU the burst needs. The apps log what they handle once (DependencyResilience).
        builder.Logging.AddFilter("Polly", LogLevel.None);
        // Text from the wire goes into log messages: the console escapes what could start a line of its own.
        builder.Logging.AddEscapedConsole();
        // It logs an error for every /health request while the app is not ready; ReadinessMonitor logs a spell of not
        // ready once.
        builder.Logging.AddFilter("Microsoft.Extensions.Diagnostics.HealthChecks", LogLevel.None);
        builder.Services.AddSingleton<ITelemetryInitializer>(new CloudRoleNameInitializer(roleName));

        builder.Services.AddSettings<ReadinessOptions>(ReadinessOptions.Section);
        builder.Services.AddSingleton<ReadinessState>();
        builder.Services.AddHostedService<ReadinessMonitor>();
        builder.Services.AddHealthChecks()
            .AddCheck("self", () => HealthCheckResult.Healthy(), [LiveTag])
            .AddCheck<ReadinessHealthCheck>("dependencies");
        builder.Services.AddProblemDetails();
        return builder;
    }

    /// <summary>
    /// Error answers without stack traces (in every environment); the app API token, when set; and health:
    /// <c>/alive</c> says the process works (container liveness), <c>/health</c> says it can do its job now
    /// (readiness, for container probes; the run files set no Dapr app health check, docs/local-run.md).
    /// </summary>
    public static WebApplication UseServiceDefaults(this WebApplication app)
    {
        app.UseExceptionHandler();
        if (app.Configuration["APP_API_TOKEN"] is { Length: > 0 } token)
        {
            app.UseAppApiToken(token);
        }

        app.MapHealthChecks(LivenessPath, new HealthCheckOptions { Predicate = check => check.Tags.Contains(LiveTag) });
        app.MapHealthChecks(ReadinessPath);
        return app;
    }

    /// <summary>
    /// Refuses every request but health without Dapr's app API token, which the sidecar sends when it has one.
    /// </summary>
    private static void UseAppApiToken(this WebApplication app, string token)
    {
        var expected = Encoding.UTF8.GetBytes(token);
        app.Use(async (context, next) =>
        {
            var path = context.Request.Path;
            if (path.Equals(LivenessPath, StringComparison.OrdinalIgnoreCase)
                || path.Equals(ReadinessPath, StringComparison.OrdinalIgnoreCase)
                || CryptographicOperations.FixedTimeEquals(
                    Encoding.UTF8.GetBytes(context.Request.Headers[AppApiTokenHeader].ToString()), expected))
            {
                await next(context);
                return;
            }

            context.Response.StatusCode = StatusCodes.Status401Unauthorized;
        });
    }

    private sealed class CloudRoleNameInitializer(string roleName) : ITelemetryInitializer
    {
        public void Initialize(ITelemetry telemetry) => telemetry.Context.Cloud.RoleName = roleName;
    }
}
