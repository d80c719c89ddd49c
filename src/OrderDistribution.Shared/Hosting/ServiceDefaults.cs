using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace OrderDistribution.Hosting;

/// <summary>What every app of the trio sets up the same way: telemetry, health, problem details.</summary>
public static class ServiceDefaults
{
    public static IHostApplicationBuilder AddServiceDefaults(this IHostApplicationBuilder builder)
    {
        var roleName = builder.Configuration["CONTAINER_APP_NAME"] is { Length: > 0 } containerApp
            ? containerApp
            : builder.Configuration["APP_ID"] is { Length: > 0 } appId ? appId : builder.Environment.ApplicationName;
        builder.Services.AddApplicationInsightsTelemetry();
        builder.Services.AddSingleton<ITelemetryInitializer>(new CloudRoleNameInitializer(roleName));
        builder.Services.AddHealthChecks();
        builder.Services.AddProblemDetails();
        return builder;
    }

    /// <summary><c>/health</c>, for liveness, readiness and the Dapr app health check alike.</summary>
    public static WebApplication MapDefaultEndpoints(this WebApplication app)
    {
        app.MapHealthChecks("/health", new HealthCheckOptions());
        return app;
    }

    private sealed class CloudRoleNameInitializer(string roleName) : ITelemetryInitializer
    {
        public void Initialize(ITelemetry telemetry) => telemetry.Context.Cloud.RoleName = roleName;
    }
}
