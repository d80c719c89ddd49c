namespace OrderDistribution.TestSupport;

/// <summary>One Azurite for a test class; each test keeps to its own containers or clears what it uses.</summary>
public sealed class AzuriteFixture : Xunit.IAsyncLifetime
{
    public Azurite Azurite { get; private set; } = null!;

    public async ValueTask InitializeAsync() => Azurite = await Azurite.StartAsync();

    public async ValueTask DisposeAsync() => await Azurite.DisposeAsync();
}
