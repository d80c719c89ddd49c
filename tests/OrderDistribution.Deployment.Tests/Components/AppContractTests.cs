using OrderDistribution.Contracts;
namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// What the apps' appsettings.json use must be provided by the components of every model, locally and in Azure.
/// </summary>
public class AppContractTests
{
    [RequiresBicepFact]
    public void Every_binding_and_topic_the_distributor_uses_is_provided_in_each_model()
    {
        var settings = AppSettings.Load(Contract.DistributorSettings);
        var uses = new (string Binding, string Direction, string Topic)[]
        {
            (settings.Required("Distributor:IngressInputBinding"), "input",
                settings.Required("Distributor:IngressQueue")),
            (settings.Required("Distributor:ExpressOutputBinding"), "output",
                settings.Required("Distributor:ExpressQueue")),
            (settings.Required("Distributor:StandardOutputBinding"), "output",
                settings.Required("Distributor:StandardQueue")),
        };

        AssertPubSubServes(settings.Required("Messaging:PubSubName"), Contract.Distributor);
        foreach (var (binding, direction, topic) in uses)
        {
            AssertBindingProvided(binding, direction, topic, Contract.Distributor);
            AssertQueueInAzure(topic);
        }
    }

    [RequiresBicepFact]
    public void Every_binding_topic_and_container_a_receiver_uses_is_provided_in_each_model()
    {
        var settings = AppSettings.Load(Contract.ReceiverSettings);
        foreach (var instance in Contract.Instances)
        {
            // The receiver's rule: names follow INSTANCE unless its settings set them.
            var topic = settings["Receiver:Queue"] ?? OrderTopology.QueueOf(instance);
            var binding = settings["Receiver:InputBinding"] ?? OrderTopology.InputBindingOf(instance);
            var container = settings["Receiver:Container"] ?? OrderTopology.OutboxOf(instance);
            var appId = $"receiver-{instance}";

            AssertPubSubServes(settings.Required("Messaging:PubSubName"), appId);
            AssertBindingProvided(binding, "input", topic, appId);
            AssertQueueInAzure(topic);
            Assert.Contains(container, InfraSnapshot.Default.BlobContainers);
        }
    }

    [Fact]
    public void Input_binding_routes_cannot_collide_with_pubsub_routes()
    {
        // Routes: /{topic}-bulk, /{topic}-single and /{input binding name}.
        var topicRoutes = Contract.Queues.SelectMany(q => new[] { $"{q}-bulk", $"{q}-single" }).ToHashSet();
        foreach (var binding in Contract.Bindings.Where(b => b.Direction == "input"))
        {
            Assert.Matches("^[a-z0-9]+(-[a-z0-9]+)*$", binding.Name);
            Assert.DoesNotContain(binding.Name, topicRoutes);
        }
    }

    [Fact]
    public void Local_redis_keeps_at_least_a_full_bulk_in_flight()
    {
        var redis = Assert.Single(DaprComponent.LoadFolder("components-pubsub"));
        foreach (var settingsFile in new[] { Contract.DistributorSettings, Contract.ReceiverSettings })
        {
            var maxMessages = AppSettings.Load(settingsFile).RequiredInt("Messaging:MaxMessagesCount");
            Assert.True(
                int.Parse(redis["concurrency"] ?? "10",
                System.Globalization.CultureInfo.InvariantCulture) >= maxMessages,
                $"order-pubsub concurrency < {settingsFile} MaxMessagesCount {maxMessages}");
            Assert.True(
                int.Parse(redis["queueDepth"] ?? "100",
                System.Globalization.CultureInfo.InvariantCulture) >= maxMessages,
                $"order-pubsub queueDepth < {settingsFile} MaxMessagesCount {maxMessages}");
        }
    }

    [RequiresBicepFact]
    public void The_distributors_bulk_publish_fits_the_service_bus_batch_limit()
    {
        var appBytes = AppSettings.Load(Contract.DistributorSettings).RequiredInt("Messaging:MaxBulkPublishBytes");
        // Standard is the smaller tier's budget: what any app default must fit.
        var budget = int.Parse(InfraSnapshot.Of(("serviceBusSku", "Standard")).Output("MAX_BULK_PUBLISH_BYTES"),
            System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(appBytes <= budget,
            $"Messaging:MaxBulkPublishBytes {appBytes} exceeds the Standard tier's maxBulkPubBytes {budget}");
    }

    private static void AssertPubSubServes(string pubSubName, string appId)
    {
        Assert.Equal(Contract.PubSubName, pubSubName);
        var local = DaprComponent.Named(DaprComponent.LoadFolder("components-pubsub"), pubSubName, "components-pubsub");
        Assert.Contains(appId, local.Scopes);
        var azure = InfraSnapshot.Of(("messagingModel", "pubsub-bulk")).Component(pubSubName);
        Assert.Contains(appId, azure.Scopes);
    }

    private static void AssertBindingProvided(string name, string direction, string queue, string appId)
    {
        var local = DaprComponent.Named(DaprComponent.LoadFolder("components-bindings"), name, "components-bindings");
        Assert.Equal(queue, local["queueName"]);
        Assert.Equal(direction, local["direction"]);
        Assert.Equal([appId], local.Scopes);

        var azure = InfraSnapshot.Of(("messagingModel", "bindings")).Component(name);
        Assert.Equal(queue, azure.Metadata["queueName"]);
        Assert.Equal(direction, azure.Metadata["direction"]);
        Assert.Equal([appId], azure.Scopes);
    }

    private static void AssertQueueInAzure(string queue) => Assert.Contains(queue, InfraSnapshot.Default.Queues);
}
