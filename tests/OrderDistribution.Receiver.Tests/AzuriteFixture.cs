using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>One Azurite for the receiver tests; each test writes to its own container.</summary>
public sealed class AzuriteFixture : IAsyncLifetime
{
    public Azurite Azurite { get; private set; } = null!;

    public async Task InitializeAsync() => Azurite = await Azurite.StartAsync();

    public async Task DisposeAsync() => await Azurite.DisposeAsync();
}
