namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// Tests of what a call carries when nothing traces it: they run after the parallel tests, since any host started
/// beside them (its OpenTelemetry listener is process-wide) makes HttpClient and gRPC start an activity of their own.
/// </summary>
[CollectionDefinition(nameof(UntracedCalls), DisableParallelization = true)]
public sealed class UntracedCalls;
