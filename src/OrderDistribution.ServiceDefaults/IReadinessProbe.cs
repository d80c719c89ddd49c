namespace OrderDistribution.ServiceDefaults;

/// <summary>A dependency the app needs to do its job now (storage, the sidecar).</summary>
public interface IReadinessProbe
{
    string Name { get; }

    /// <exception cref="Exception">Any: the dependency cannot be used now.</exception>
    Task CheckAsync(CancellationToken cancellationToken);
}
