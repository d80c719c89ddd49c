using System.Globalization;

namespace OrderDistribution.Deployment.Tests;

/// <summary>What infra/ deploys, read from the resources the Bicep compiler evaluates for given parameters.</summary>
public class BicepTests
{
    private static readonly string[] BindingNames =
        [.. Contract.Bindings.Select(b => b.Name), Contract.DeadLetterOutput.Name];

    [RequiresBicepFact]
    public void Bicep_declares_the_dapr_components_the_apps_need_and_no_local_only_one()
    {
        var names = InfraSnapshot.Default.Components.Select(c => c.Name).ToList();

        Assert.Equal(BindingNames.Prepend(Contract.PubSubName).Order(StringComparer.Ordinal),
            names.Order(StringComparer.Ordinal));
        Assert.DoesNotContain(Contract.LocalIngressOutput.Name, names);
    }

    [RequiresBicepTheory]
    [InlineData("pubsub-bulk")]
    [InlineData("pubsub-single")]
    [InlineData("bindings")]
    public void Bicep_scopes_follow_the_model_parameter(string model)
    {
        foreach (var component in InfraSnapshot.Of(("messagingModel", model)).Components)
        {
            var live = component.Name == Contract.PubSubName ? model != "bindings" : model == "bindings";
            string[] expected = !live
                ? [Contract.PlaceholderScope]
                : component.Name == Contract.PubSubName || component.Name == Contract.DeadLetterOutput.Name
                    ? Contract.AppIds
                    : [Contract.Bindings.Single(b => b.Name == component.Name).AppId];
            Assert.Equal(expected, component.Scopes);
        }
    }

    [RequiresBicepFact]
    public void Order_pubsub_is_service_bus_queues_in_the_deployed_namespace_tuned_by_parameters()
    {
        var snapshot = InfraSnapshot.Default;
        var pubSub = snapshot.Component(Contract.PubSubName);

        Assert.Equal("pubsub.azure.servicebus.queues", pubSub.ComponentType);
        Assert.Equal("true", pubSub.Metadata["disableEntityManagement"]);
        Assert.Equal(snapshot.Output("SERVICEBUS_NAMESPACE_FQDN"), pubSub.Metadata["namespaceName"]);
        Assert.Equal($"{snapshot.Output("SERVICEBUS_NAMESPACE")}.servicebus.windows.net",
            pubSub.Metadata["namespaceName"]);
        // The component ignores maxBulkPubBytes at this level (it reads it from each bulk publish request).
        Assert.False(pubSub.Metadata.ContainsKey("maxBulkPubBytes"));

        var tuned = InfraSnapshot.Of(("maxActiveMessages", 300), ("maxConcurrentHandlers", 2))
            .Component(Contract.PubSubName);
        Assert.Equal(300, tuned.IntMetadata("maxActiveMessages"));
        Assert.Equal(2, tuned.IntMetadata("maxConcurrentHandlers"));
    }

    [RequiresBicepTheory]
    [InlineData("pubsub-bulk", 250, 1)]
    [InlineData("pubsub-single", 128, 64)]
    public void Order_pubsub_gets_the_handler_settings_of_the_chosen_pubsub_model(string model, int activeMessages,
        int handlers)
    {
        var pubSub = InfraSnapshot.Of(("messagingModel", model)).Component(Contract.PubSubName);

        Assert.Equal(activeMessages, pubSub.IntMetadata("maxActiveMessages"));
        Assert.Equal(handlers, pubSub.IntMetadata("maxConcurrentHandlers"));
    }

    [RequiresBicepFact]
    public void Pubsub_single_runs_many_handlers_while_pubsub_bulk_keeps_the_seeds_one_handler_filling_whole_bulks()
    {
        var bulk = InfraSnapshot.Of(("messagingModel", "pubsub-bulk")).Component(Contract.PubSubName);
        var single = InfraSnapshot.Of(("messagingModel", "pubsub-single")).Component(Contract.PubSubName);

        Assert.Equal(1, bulk.IntMetadata("maxConcurrentHandlers"));
        Assert.Equal(AppSettings.Load(Contract.DistributorSettings).RequiredInt("Messaging:MaxMessagesCount"),
            bulk.IntMetadata("maxActiveMessages"));
        Assert.True(single.IntMetadata("maxConcurrentHandlers") > 1,
            "single mode with one handler handles one message at a time");
        Assert.True(single.IntMetadata("maxActiveMessages") >= single.IntMetadata("maxConcurrentHandlers"),
            "fewer active messages than handlers leaves handlers idle");
    }

    [RequiresBicepFact]
    public void Each_binding_is_a_service_bus_queue_binding_of_its_apps_queue()
    {
        foreach (var binding in Contract.Bindings)
        {
            var component = InfraSnapshot.Default.Component(binding.Name);
            Assert.Equal("bindings.azure.servicebusqueues", component.ComponentType);
            Assert.Equal(binding.Queue, component.Metadata["queueName"]);
            Assert.Equal(binding.Direction, component.Metadata["direction"]);
            Assert.Equal("true", component.Metadata["disableEntityManagement"]);
        }
    }

    [RequiresBicepFact]
    public void Service_bus_holds_the_three_queues_and_storage_the_three_containers()
    {
        Assert.Equal(Contract.Queues, InfraSnapshot.Default.Queues);
        Assert.Equal(Contract.BlobContainers, InfraSnapshot.Default.BlobContainers);
    }

    [RequiresBicepTheory]
    [InlineData("Standard", 262144)]
    [InlineData("Premium", 1048576)]
    public void The_service_bus_sku_parameter_drives_the_namespace_tier_and_the_byte_budget(string sku,
        int tierBatchLimit)
    {
        var snapshot = InfraSnapshot.Of(("serviceBusSku", sku), ("serviceBusMessagingUnits", 2));
        var ns = Assert.Single(snapshot.OfType("Microsoft.ServiceBus/namespaces"));
        Assert.Equal(sku, ns["sku"]!["name"]!.GetValue<string>());
        Assert.Equal(sku, ns["sku"]!["tier"]!.GetValue<string>());
        Assert.Equal(sku == "Premium" ? 2 : null, ns["sku"]!["capacity"]?.GetValue<int>());

        // The budget follows the tier, under its batch cap with room for framing, inside the apps' valid range,
        // and every app gets it.
        var budget = int.Parse(snapshot.Output("MAX_BULK_PUBLISH_BYTES"), CultureInfo.InvariantCulture);
        Assert.InRange(budget, tierBatchLimit - 16 * 1024, tierBatchLimit - 1024);
        Assert.InRange(budget, 1024, 1048576);
        Assert.All(snapshot.ContainerApps,
            app => Assert.Equal(budget.ToString(CultureInfo.InvariantCulture),
            app.Env["Messaging__MaxBulkPublishBytes"]));
    }

    [RequiresBicepFact]
    public void A_tier_change_deploys_a_new_namespace_because_service_bus_cannot_change_tier_in_place()
    {
        var standard = InfraSnapshot.Of(("serviceBusSku", "Standard")).Output("SERVICEBUS_NAMESPACE");
        var premium = InfraSnapshot.Of(("serviceBusSku", "Premium")).Output("SERVICEBUS_NAMESPACE");

        Assert.NotEqual(standard, premium);
        // The Standard name stays what it always was: sb-<resource token>, as the storage account's st-<token>.
        Assert.Equal(standard[3..], InfraSnapshot.Default.Output("STORAGE_ACCOUNT_NAME")[2..]);
        Assert.StartsWith("sb-", standard, StringComparison.Ordinal);
    }

    [RequiresBicepFact]
    public void The_storage_account_refuses_shared_key_access()
    {
        var account = Assert.Single(InfraSnapshot.Default.OfType("Microsoft.Storage/storageAccounts"));
        Assert.False(account["properties"]!["allowSharedKeyAccess"]!.GetValue<bool>());
    }
}
