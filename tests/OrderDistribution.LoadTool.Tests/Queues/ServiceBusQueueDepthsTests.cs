using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Azure.Core;
using Azure.Core.Pipeline;
using Azure.ResourceManager;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Queues;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Queues;

/// <summary>
/// The orders waiting on each Service Bus queue in Azure, read from Resource Manager as it answers (its answers given
/// here, in process, to the SDK's real client): each queue's active messages, a queue it does not have left out, a
/// refusal failing the reading with Resource Manager's reason.
/// </summary>
public sealed partial class ServiceBusQueueDepthsTests
{
    /// <summary>A deployed namespace to read for real, when one is given.</summary>
    private const string DeployedNamespace = "ORDER_LOAD_TEST_SERVICEBUS_NAMESPACE_ID";

    private static readonly ResourceIdentifier Namespace = ServiceBusQueueDepths.NamespaceOf(
        "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg-burst/providers/" +
        "Microsoft.ServiceBus/namespaces/sb-burst")!;

    [Fact]
    public async Task Each_queues_waiting_orders_are_its_active_messages_as_resource_manager_reports_them()
    {
        var arm = new ResourceManagerStandIn()
            .Queue("q-order-ingress", """{"activeMessageCount":4210,"scheduledMessageCount":0}""")
            .Queue("q-order-express", """{"activeMessageCount":512,"deadLetterMessageCount":3}""")
            .Queue("q-order-standard", """{"activeMessageCount":0}""");
        var depths = arm.Depths();

        var waiting = await depths.ReadAsync(CancellationToken.None);

        Assert.Equal(
            new Dictionary<string, long>
            {
                ["q-order-ingress"] = 4210,
                ["q-order-express"] = 512,
                ["q-order-standard"] = 0,
            },
            waiting);
        // One read per queue, signed in, at the API version the queues are deployed with.
        Assert.Equal(3, arm.Requests.Count);
        Assert.All(arm.Requests, request =>
        {
            Assert.Equal(HttpMethod.Get, request.Method);
            Assert.Equal($"api-version={ServiceBusQueueDepths.ApiVersion}", request.RequestUri!.Query.TrimStart('?'));
            Assert.StartsWith($"https://management.azure.com{Namespace}/queues/", request.RequestUri.ToString(),
                StringComparison.OrdinalIgnoreCase);
            Assert.Equal("Bearer", request.Headers.Authorization?.Scheme);
        });
    }

    [Fact]
    public async Task A_queue_resource_manager_does_not_have_is_left_out_and_the_others_read()
    {
        var arm = new ResourceManagerStandIn()
            .Queue("q-order-ingress", """{"activeMessageCount":7}""");

        var waiting = await arm.Depths().ReadAsync(CancellationToken.None);

        Assert.Equal(new Dictionary<string, long> { ["q-order-ingress"] = 7 }, waiting);
    }

    [Fact]
    public async Task A_refused_reading_fails_the_second_and_the_series_names_resource_managers_reason_once()
    {
        var arm = new ResourceManagerStandIn
        {
            Refusal = "The client 'you' does not have authorization to perform action " +
                      "'Microsoft.ServiceBus/namespaces/queues/read'.",
        };
        await using var sampler = QueueSampler.Start(arm.Depths(), BurstMeasurement.Queues);
        await arm.Asked.Task.WaitAsync(TimeSpan.FromSeconds(30));

        var series = await sampler.StopAsync(DateTimeOffset.UnixEpoch);

        Assert.Empty(series.Samples);
        Assert.NotNull(series.Fault);
        Assert.Matches(ReadingsFailed(), series.Fault);
        Assert.Contains("does not have authorization to perform action", series.Fault, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', series.Fault);
    }

    [Fact]
    public async Task A_deployed_namespace_answers_every_queues_active_messages_to_the_signed_in_user()
    {
        var given = Environment.GetEnvironmentVariable(DeployedNamespace);
        Assert.SkipWhen(string.IsNullOrEmpty(given),
            $"no Azure: set {DeployedNamespace} to a deployed namespace's resource id and sign in (az login)");
        var deployed = ServiceBusQueueDepths.NamespaceOf(given);
        Assert.True(deployed is not null, $"{DeployedNamespace} is no Service Bus namespace's resource id: {given}");
        await using var depths = ServiceBusQueueDepths.Connect(deployed, BurstMeasurement.Queues);

        var waiting = await depths.ReadAsync(CancellationToken.None);

        Assert.Equal(BurstMeasurement.Queues.Order(), waiting.Keys.Order());
        Assert.All(waiting.Values, count => Assert.True(count >= 0));
    }

    [Fact]
    public void The_api_version_is_the_one_the_queues_are_deployed_with()
    {
        var bicep = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "infra", "modules", "servicebus.bicep"));

        Assert.Contains($"'Microsoft.ServiceBus/namespaces/queues@{ServiceBusQueueDepths.ApiVersion}'", bicep,
            StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/" +
                "Microsoft.ServiceBus/namespaces/sb", true)]
    [InlineData("/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/" +
                "Microsoft.ServiceBus/namespaces/sb/queues/q-order-ingress", false)]
    [InlineData("/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/" +
                "Microsoft.Storage/storageAccounts/st", false)]
    [InlineData("/subscriptions/sub/resourceGroups/rg/providers/Microsoft.ServiceBus/namespaces/sb", false)]
    [InlineData("sb-burst.servicebus.windows.net", false)]
    public void Only_a_service_bus_namespaces_resource_id_names_the_queues_to_read(string text, bool taken) =>
        Assert.Equal(taken, ServiceBusQueueDepths.NamespaceOf(text) is not null);

    [GeneratedRegex(@"^[1-9]\d* of [1-9]\d* readings failed, the first: ")]
    private static partial Regex ReadingsFailed();

    /// <summary>Resource Manager's answers to the queue reads, and the requests it was sent.</summary>
    private sealed class ResourceManagerStandIn : HttpMessageHandler
    {
        private readonly Dictionary<string, string> _counts = new(StringComparer.OrdinalIgnoreCase);

        public List<HttpRequestMessage> Requests { get; } = [];

        public TaskCompletionSource Asked { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>When set, every read is refused (403) with this message.</summary>
        public string? Refusal { get; init; }

        public ResourceManagerStandIn Queue(string name, string countDetails)
        {
            _counts[name] = countDetails;
            return this;
        }

        public ServiceBusQueueDepths Depths() =>
            ServiceBusQueueDepths.Connect(Namespace, BurstMeasurement.Queues, new SignedIn(),
                new ArmClientOptions { Transport = new HttpClientTransport(new HttpClient(this)) });

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken ct)
        {
            lock (Requests)
            {
                Requests.Add(request);
            }

            Asked.TrySetResult();
            var name = request.RequestUri!.AbsolutePath.Split('/')[^1];
            if (Refusal is not null)
            {
                return Answer(HttpStatusCode.Forbidden, Error("AuthorizationFailed", Refusal));
            }

            if (!_counts.TryGetValue(name, out var counts))
            {
                return Answer(HttpStatusCode.NotFound, Error("NotFound", $"Entity '{name}' was not found."));
            }

            var queue = new JsonObject
            {
                ["id"] = $"{Namespace}/queues/{name}",
                ["name"] = name,
                ["type"] = "Microsoft.ServiceBus/Namespaces/Queues",
                ["properties"] = new JsonObject { ["countDetails"] = JsonNode.Parse(counts) },
            };
            return Answer(HttpStatusCode.OK, queue.ToJsonString());
        }

        private static string Error(string code, string message) =>
            new JsonObject { ["error"] = new JsonObject { ["code"] = code, ["message"] = message } }.ToJsonString();

        private static Task<HttpResponseMessage> Answer(HttpStatusCode status, string json) =>
            Task.FromResult(new HttpResponseMessage(status)
            {
                Content = new StringContent(json, Encoding.UTF8, "application/json"),
            });
    }

    private sealed class SignedIn : TokenCredential
    {
        public override AccessToken GetToken(TokenRequestContext requestContext, CancellationToken cancellationToken) =>
            new("token", DateTimeOffset.UtcNow.AddHours(1));

        public override ValueTask<AccessToken> GetTokenAsync(
            TokenRequestContext requestContext, CancellationToken cancellationToken) =>
            ValueTask.FromResult(GetToken(requestContext, cancellationToken));
    }
}
