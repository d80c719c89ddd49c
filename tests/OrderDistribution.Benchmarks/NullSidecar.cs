using Dapr.Client;
using NSubstitute;

namespace OrderDistribution.Benchmarks;

/// <summary>A DaprClient that takes every publish at no cost: what is left is the distributor's own work.</summary>
public static class NullSidecar
{
    public static DaprClient Create()
    {
        var dapr = Substitute.For<DaprClient>();
        dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default)
            .ReturnsForAnyArgs(Task.FromResult(new BulkPublishResponse<byte[]>([])));
        return dapr;
    }
}
