using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Scheduling;

/// <summary>
/// What the scheduling tests share: a fake of the sidecar's HTTP API that records every request, Azurite, and a
/// folder for the orders file and the schedule record.
/// </summary>
public abstract class SchedulingTest(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IAsyncLifetime
{
    private readonly TempFolder _folder = new("order-load-");

    protected EmulatedSidecar Sidecar { get; private set; } = null!;

    protected string Folder => _folder.Path;

    protected AzuriteFixture Storage { get; } = storage;

    public async ValueTask InitializeAsync() => Sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync()
    {
        _folder.Dispose();
        await Sidecar.DisposeAsync();
        GC.SuppressFinalize(this);
    }

    protected string[] Common() => ["--storage", Storage.Azurite.ConnectionString, .. Files()];

    protected string[] Files() =>
    [
        "--sidecar", Sidecar.Address.ToString(), "--orders", Path.Combine(Folder, "orders.json"),
        "--state", Path.Combine(Folder, "schedule.json"),
    ];

    protected async Task<List<Order>> GenerateAsync(int count)
    {
        var orders = OrderGenerator.Generate(count, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(Folder, "orders.json"), OrderSet.ValidOnly(orders), default);
        return orders;
    }
}
