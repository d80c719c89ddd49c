namespace OrderDistribution.RealParts.Tests;

/// <summary>A started daprd, reached from the test process at its HTTP and gRPC endpoints; disposing stops it.</summary>
public sealed class RunningSidecar(Uri httpEndpoint, Uri grpcEndpoint, Func<ValueTask> stop) : IAsyncDisposable
{
    public Uri HttpEndpoint { get; } = httpEndpoint;

    public Uri GrpcEndpoint { get; } = grpcEndpoint;

    public ValueTask DisposeAsync() => stop();
}
