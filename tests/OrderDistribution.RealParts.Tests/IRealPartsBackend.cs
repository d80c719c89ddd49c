using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// Where the real parts of a trio run: Docker containers (<see cref="ContainerBackend"/>) or local processes
/// (<see cref="LocalProcessBackend"/>). Everything it starts is stopped when it is disposed, whatever happened.
/// </summary>
public interface IRealPartsBackend : IAsyncDisposable
{
    /// <summary>One line naming the back-end and the sidecar it runs, for the test output and .ci/run.</summary>
    string Description { get; }

    /// <summary>The broker <paramref name="model"/> needs (Redis or RabbitMQ) and Azurite.</summary>
    Task<StartedParts> StartPartsAsync(MessagingModel model, CancellationToken ct);

    /// <summary>
    /// A daprd for one app, running the given component folders; it reaches its app at <see
    /// cref="SidecarLaunch.AppPort"/> on the test's host. Returns once it runs, before its app is up (daprd waits for
    /// the app itself).
    /// </summary>
    Task<RunningSidecar> StartSidecarAsync(SidecarLaunch launch, CancellationToken ct);
}
