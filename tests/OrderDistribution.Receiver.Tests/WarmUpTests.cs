using System.Net;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>The warm-up at start against a real Azurite: it opens storage and stores nothing.</summary>
public sealed class WarmUpTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task The_receiver_warms_up_before_it_answers_its_first_request_and_its_outbox_stays_empty()
    {
        using var app = new ReceiverFactory(storage.Azurite.ConnectionString,
            settings: [("Receiver:Container", _container), ("Logging:LogLevel:Default", "Debug")]);

        using var response = await app.CreateClient().GetAsync("/alive", TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains(app.Logs.Lines, l => l.Category == typeof(ReceiverWarmUp).FullName
            && l.Message.StartsWith("Warmed up in ", StringComparison.Ordinal));
        Assert.DoesNotContain(app.Logs.Lines,
            l => l.Message.StartsWith("Warm-up: the connections are not open", StringComparison.Ordinal));
        Assert.True(await Outbox.Container(storage.Azurite.ConnectionString, _container)
            .ExistsAsync(TestContext.Current.CancellationToken));
        Assert.Equal(0, await Outbox.CountAsync(storage.Azurite.ConnectionString, _container));
    }

    [Fact]
    public async Task Storage_that_cannot_be_reached_at_start_leaves_the_receiver_started_and_not_ready()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port) { Frozen = true };
        using var app = new ReceiverFactory(Azurite.ConnectionStringFor(proxy.Port),
            settings: [("Receiver:Container", _container), ("Readiness:Timeout", "00:00:00.300")]);
        var client = app.CreateClient();

        using var alive = await client.GetAsync("/alive", TestContext.Current.CancellationToken);
        using var ready = await client.GetAsync("/health", TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, alive.StatusCode);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
    }
}
