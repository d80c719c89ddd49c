using System.Net;
using System.Text;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Queues;

namespace OrderDistribution.LoadTool.Tests.Queues;

/// <summary>
/// The bindings model's queue depths come from RabbitMQ's management API while it answers, and from rabbitmqctl, every
/// 10 s and said once, when it does not; the API's JSON read here from a handler that answers as RabbitMQ 3 does.
/// </summary>
public sealed class RabbitMqSourceTests
{
    private static readonly string Ingress = BurstMeasurement.Queues[0];
    private static readonly string Express = BurstMeasurement.Queues[1];

    [Fact]
    public async Task The_api_gives_each_named_queues_messages_and_leaves_out_other_queues_and_ones_without_statistics()
    {
        var handler = new Answering(HttpStatusCode.OK, $$"""
            [{"messages":1234,"name":"{{Ingress}}"},{"name":"{{Express}}"},{"messages":7,"name":"other"}]
            """);
        await using var depths = Api(handler, "orders");

        Assert.Equal(new Dictionary<string, long> { [Ingress] = 1234 }, await depths.ReadAsync(default));
        Assert.Equal("/api/queues/orders?columns=name,messages", handler.Asked!.PathAndQuery);
    }

    [Fact]
    public async Task An_api_that_answers_is_read_once_a_second_and_nothing_is_said()
    {
        var notices = new List<string>();
        var (depths, interval) = await RabbitMqSource.ChooseAsync(
            Api(new Answering(HttpStatusCode.OK, "[]"), "orders"), () => throw new InvalidOperationException(),
            notices.Add);
        await using var _ = depths;

        Assert.IsType<RabbitMqApiQueueDepths>(depths);
        Assert.Equal(TimeSpan.FromSeconds(1), interval);
        Assert.Empty(notices);
    }

    [Theory]
    [InlineData(HttpStatusCode.NotFound, "Not found")]
    [InlineData(HttpStatusCode.Unauthorized, "{\"error\":\"not_authorised\"}")]
    [InlineData(HttpStatusCode.OK, "<html>not the api</html>")]
    public async Task Without_the_api_rabbitmqctl_is_asked_every_10_s_and_that_is_said_in_one_line(
        HttpStatusCode status, string body)
    {
        var notices = new List<string>();
        var fallback = new RabbitMqQueueDepths(_ => Task.FromResult(""), BurstMeasurement.Queues);
        var (depths, interval) = await RabbitMqSource.ChooseAsync(
            Api(new Answering(status, body), "orders"), () => fallback, notices.Add);

        Assert.Same(fallback, depths);
        Assert.Equal(TimeSpan.FromSeconds(10), interval);
        var notice = Assert.Single(notices);
        Assert.DoesNotContain('\n', notice);
        Assert.Contains("rabbitmqctl every 10 s", notice, StringComparison.Ordinal);
    }

    private static RabbitMqApiQueueDepths Api(HttpMessageHandler handler, string vhost) =>
        new(new HttpClient(handler) { BaseAddress = new Uri("http://127.0.0.1:15672/") }, vhost,
            BurstMeasurement.Queues);

    private sealed class Answering(HttpStatusCode status, string body) : HttpMessageHandler
    {
        public Uri? Asked { get; private set; }

        protected override Task<HttpResponseMessage> SendAsync(
            HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Asked = request.RequestUri;
            var type = body.StartsWith('<') ? "text/html" : "application/json";
            return Task.FromResult(new HttpResponseMessage(status)
            {
                Content = new StringContent(body, Encoding.UTF8, type),
            });
        }
    }
}
