using System.Net;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The entry points over HTTP, with a stub handler that sends every order on through the core's ways out, against the
/// sidecar emulator in its recording mode.
/// </summary>
public abstract class RecordingSidecarTests : IAsyncLifetime
{
    protected EmulatedSidecar Sidecar { get; private set; } = null!;

    public async ValueTask InitializeAsync() => Sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync()
    {
        await Sidecar.DisposeAsync();
        GC.SuppressFinalize(this);
    }

    protected Task<EntryPointsHost> ForwardingAsync(params (string Key, string? Value)[] settings) =>
        EntryPointsHost.ForwardingAsync(Sidecar.Address, settings);

    protected static async Task<HttpClient> ReadyClientAsync(EntryPointsHost app)
    {
        await Eventually.StatusAsync(app.Client, "/health", HttpStatusCode.OK);
        return app.Client;
    }
}
