using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>A dependency the app needs to do its job now (storage, the sidecar).</summary>
public interface IReadinessProbe
{
    string Name { get; }

    /// <exception cref="Exception">Any: the dependency cannot be used now.</exception>
    Task CheckAsync(CancellationToken cancellationToken);
}
