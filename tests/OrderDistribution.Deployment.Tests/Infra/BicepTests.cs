using System.Globalization;
using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

/// <summary>What infra/ deploys, read from the resources the Bicep compiler evaluates for given parameters.</summary>
public class BicepTests
{
    private static readonly string[] BindingNames = Contract.Bindings.Select(b => b.Name).ToArray();

    [RequiresBicepFact]
    public void The_container_apps_use_the_dapr_app_ids_of_dapr_yaml_as_app_and_role_names()
    {
        var runFileIds = DaprRunFile.Load(DaprRunFile.PubSub).Apps.Select(a => a.Id).ToList();
        var apps = InfraSnapshot.Default.ContainerApps;

        // The container app name is the cloud role name the KQL queries filter on, and azd's service name.
        Assert.Equal(runFileIds, apps.Select(a => a.Name));
        Assert.All(apps, app =>
        {
            Assert.Equal(app.Name, app.Configuration["dapr"]!["appId"]!.GetValue<string>());
            Assert.Equal(app.Name, app.Resource["tags"]!["azd-service-name"]!.GetValue<string>());
        });
    }

    [RequiresBicepFact]
    public void Bicep_declares_the_dapr_components_the_apps_need_and_no_local_only_one()
    {
        var names = InfraSnapshot.Default.Components.Select(c => c.Name).ToList();

        Assert.Equal(BindingNames.Prepend(Contract.PubSubName).Order(StringComparer.Ordinal), names.Order(StringComparer.Ordinal));
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
                : component.Name == Contract.PubSubName
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
        Assert.Equal($"{snapshot.Output("SERVICEBUS_NAMESPACE")}.servicebus.windows.net", pubSub.Metadata["namespaceName"]);
        // The component ignores maxBulkPubBytes at this level (it reads it from each bulk publish request).
        Assert.False(pubSub.Metadata.ContainsKey("maxBulkPubBytes"));

        var tuned = InfraSnapshot.Of(("maxActiveMessages", 300), ("maxConcurrentHandlers", 2)).Component(Contract.PubSubName);
        Assert.Equal(300, tuned.IntMetadata("maxActiveMessages"));
        Assert.Equal(2, tuned.IntMetadata("maxConcurrentHandlers"));
    }

    [RequiresBicepTheory]
    [InlineData("pubsub-bulk", 250, 1)]
    [InlineData("pubsub-single", 128, 64)]
    public void Order_pubsub_gets_the_handler_settings_of_the_chosen_pubsub_model(string model, int activeMessages, int handlers)
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
        Assert.Equal(AppSettings.Load(Contract.DistributorSettings).RequiredInt("Messaging:MaxMessagesCount"), bulk.IntMetadata("maxActiveMessages"));
        Assert.True(single.IntMetadata("maxConcurrentHandlers") > 1, "single mode with one handler handles one message at a time");
        Assert.True(single.IntMetadata("maxActiveMessages") >= single.IntMetadata("maxConcurrentHandlers"), "fewer active messages than handlers leaves handlers idle");
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
    public void The_service_bus_sku_parameter_drives_the_namespace_tier_and_the_byte_budget(string sku, int tierBatchLimit)
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
        Assert.All(snapshot.ContainerApps, app => Assert.Equal(budget.ToString(CultureInfo.InvariantCulture), app.Env["Messaging__MaxBulkPublishBytes"]));
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

    [RequiresBicepFact]
    public void Every_container_app_gets_the_model_settings_and_its_identity()
    {
        var snapshot = InfraSnapshot.Of(("messagingModel", "pubsub-single"), ("maxMessagesCount", 100));
        foreach (var app in snapshot.ContainerApps)
        {
            Assert.Equal("pubsub-single", app.Env["Messaging__Model"]);
            Assert.Equal("100", app.Env["Messaging__MaxMessagesCount"]);
            Assert.Equal("secretref:appinsights-connection-string", app.Env["APPLICATIONINSIGHTS_CONNECTION_STRING"]);
            Assert.Contains($"/userAssignedIdentities/id-{app.Name}-", app.Env["AZURE_CLIENT_ID"], StringComparison.Ordinal);
            if (app.Name.StartsWith("receiver-", StringComparison.Ordinal))
            {
                Assert.Equal(app.Name["receiver-".Length..], app.Env["INSTANCE"]);
                Assert.Equal(snapshot.Output("STORAGE_BLOB_ENDPOINT"), app.Env["Storage__AccountUrl"]);
            }
        }
    }

    [RequiresBicepFact]
    public void The_container_apps_run_dapr_internal_ingress_and_scale_on_the_queue_they_read()
    {
        var scaledOn = new Dictionary<string, string>
        {
            [Contract.Distributor] = Contract.IngressQueue,
            [Contract.ReceiverExpress] = Contract.ExpressQueue,
            [Contract.ReceiverStandard] = Contract.StandardQueue,
        };
        var snapshot = InfraSnapshot.Default;
        foreach (var app in snapshot.ContainerApps)
        {
            var dapr = app.Configuration["dapr"]!;
            Assert.True(dapr["enabled"]!.GetValue<bool>());
            Assert.Equal(8080, dapr["appPort"]!.GetValue<int>());
            Assert.Equal("http", dapr["appProtocol"]!.GetValue<string>());
            Assert.False(app.Configuration["ingress"]!["external"]!.GetValue<bool>());
            Assert.Equal("8080", app.Env["ASPNETCORE_HTTP_PORTS"]);

            var rule = app.ScaleRule;
            Assert.Equal("azure-servicebus", rule["type"]!.GetValue<string>());
            Assert.Equal(scaledOn[app.Name], rule["metadata"]!["queueName"]!.GetValue<string>());
            Assert.Equal(snapshot.Output("SERVICEBUS_NAMESPACE"), rule["metadata"]!["namespace"]!.GetValue<string>());
        }
    }

    [RequiresBicepFact]
    public void Probes_are_set_only_when_the_app_runs_its_real_image_not_azds_placeholder()
    {
        // Not yet deployed by azd: the placeholder image, which serves neither probe path, and no probes.
        Assert.All(InfraSnapshot.Of(("distributorExists", false)).ContainerApps, app =>
        {
            Assert.StartsWith("mcr.microsoft.com/", app.Container["image"]!.GetValue<string>(), StringComparison.Ordinal);
            Assert.Empty(app.Container["probes"]!.AsArray());
        });

        // Deployed: the image is read from the running app, and the probes follow that image, not `exists` (true
        // also after a provision that left the placeholder running).
        var deployed = InfraSnapshot.Of(("distributorExists", true)).ContainerApp(Contract.Distributor).Container;
        Assert.Contains("/containerApps/distributor'", deployed["image"]!.GetValue<string>(), StringComparison.Ordinal);
        var probes = deployed["probes"]!.GetValue<string>();
        Assert.StartsWith("[if(not(equals(coalesce(tryGet(tryGet(reference(", probes, StringComparison.Ordinal);
        Assert.Contains("'mcr.microsoft.com/dotnet/samples:aspnetapp')), variables('probes'), createArray())]", probes, StringComparison.Ordinal);

        // Liveness never checks dependencies: a storage outage must not restart containers.
        var module = Assert.Single(BicepCompiler.Resources(BicepCompiler.Main), r => r["name"]?.GetValue<string>() == "app-distributor");
        var declared = module["properties"]!["template"]!["variables"]!["probes"]!.AsArray()
            .ToDictionary(p => p!["type"]!.GetValue<string>(), p => p!["httpGet"]!["path"]!.GetValue<string>());
        Assert.Equal(Contract.LivenessPath, declared["Liveness"]);
        Assert.Equal(Contract.ReadinessPath, declared["Readiness"]);
    }

    [RequiresBicepFact]
    public void Main_parameters_json_names_every_parameter_main_bicep_declares_without_a_default()
    {
        var declared = BicepCompiler.Main["parameters"]!.AsObject();
        var given = MainParameters();

        foreach (var (name, parameter) in declared)
        {
            Assert.True(parameter!["defaultValue"] is not null || given.ContainsKey(name), $"main.parameters.json does not set {name}");
        }

        foreach (var name in given.Keys)
        {
            Assert.True(declared.ContainsKey(name), $"main.parameters.json sets {name}, which main.bicep does not declare");
        }
    }

    [Theory]
    [InlineData("environmentName", "${AZURE_ENV_NAME}")]
    [InlineData("location", "${AZURE_LOCATION}")]
    [InlineData("messagingModel", "${MESSAGING_MODEL=pubsub-bulk}")]
    [InlineData("maxMessagesCount", "${MAX_MESSAGES_COUNT=250}")]
    [InlineData("maxActiveMessages", "${MAX_ACTIVE_MESSAGES=250}")]
    [InlineData("maxConcurrentHandlers", "${MAX_CONCURRENT_HANDLERS=1}")]
    [InlineData("singleMaxActiveMessages", "${SINGLE_MAX_ACTIVE_MESSAGES=128}")]
    [InlineData("singleMaxConcurrentHandlers", "${SINGLE_MAX_CONCURRENT_HANDLERS=64}")]
    [InlineData("bindingConsumersPerQueue", "${BINDING_CONSUMERS_PER_QUEUE=4}")]
    [InlineData("serviceBusSku", "${SERVICE_BUS_SKU=Standard}")]
    [InlineData("serviceBusMessagingUnits", "${SERVICE_BUS_MESSAGING_UNITS=1}")]
    [InlineData("requestDeadlineSeconds", "${REQUEST_DEADLINE_SECONDS=10}")]
    public void Main_parameters_json_maps_the_azd_variables(string parameter, string value) =>
        Assert.Equal(value, MainParameters().GetValueOrDefault(parameter));

    [RequiresBicepFact]
    public void Main_bicep_outputs_what_azd_and_the_scripts_need()
    {
        var outputs = InfraSnapshot.Default.Outputs.Select(o => o.Key).ToList();
        foreach (var name in new[]
                 {
                     "AZURE_RESOURCE_GROUP", "AZURE_CONTAINER_REGISTRY_ENDPOINT", "AZURE_CONTAINER_APPS_ENVIRONMENT_NAME",
                     "SERVICEBUS_NAMESPACE", "SERVICEBUS_NAMESPACE_FQDN", "STORAGE_ACCOUNT_NAME", "STORAGE_BLOB_ENDPOINT",
                     "APPLICATIONINSIGHTS_NAME", "LOG_ANALYTICS_WORKSPACE_ID", "DAPR_PLACEHOLDER_SCOPE", "MAX_BULK_PUBLISH_BYTES",
                 })
        {
            Assert.Contains(name, outputs);
        }

        Assert.Equal(Contract.PlaceholderScope, InfraSnapshot.Default.Output("DAPR_PLACEHOLDER_SCOPE"));
    }

    [RequiresBicepFact]
    public void Main_bicep_targets_the_subscription_and_creates_the_resource_group()
    {
        Assert.Contains("subscriptionDeploymentTemplate", BicepCompiler.Main["$schema"]!.GetValue<string>(), StringComparison.Ordinal);
        var group = Assert.Single(InfraSnapshot.Default.OfType("Microsoft.Resources/resourceGroups"));
        Assert.Equal($"rg-{InfraSnapshot.EnvironmentName}", group["name"]!.GetValue<string>());
    }

    [RequiresBicepFact]
    public void No_container_app_runs_the_dapr_app_health_check_which_stops_bulk_subscriptions_and_input_bindings_for_good()
    {
        // docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own": a subscription or input binding stopped by app health wedged daprd 1.14.
        // Backpressure is the apps' per-entry RETRY answer; the container probes stay.
        foreach (var model in OrderDistribution.Messaging.MessagingModels.Spellings)
        {
            var apps = InfraSnapshot.Of(("messagingModel", model)).ContainerApps;
            Assert.Equal(3, apps.Count);
            Assert.All(apps, app => Assert.Null(app.Configuration["dapr"]!["appHealth"]));
        }
    }

    [RequiresBicepFact]
    public void Pubsub_single_bounds_the_requests_each_sidecar_runs_into_its_app_with_the_handlers_number_and_nothing_else_does()
    {
        var single = InfraSnapshot.Of(("messagingModel", "pubsub-single"));
        var handlers = single.Component(Contract.PubSubName).IntMetadata("maxConcurrentHandlers");
        Assert.Equal(64, handlers);
        Assert.All(single.ContainerApps, app => Assert.Equal(handlers, app.Configuration["dapr"]!["maxConcurrency"]!.GetValue<int>()));

        foreach (var other in new[] { InfraSnapshot.Of(("messagingModel", "pubsub-bulk")), InfraSnapshot.Of(("messagingModel", "bindings")) })
        {
            Assert.All(other.ContainerApps, app => Assert.Null(app.Configuration["dapr"]!["maxConcurrency"]));
        }
    }

    [RequiresBicepFact]
    public void Azd_up_deploys_the_burst_workbook_beside_application_insights_with_the_real_resource_ids()
    {
        var snapshot = InfraSnapshot.Default;
        var workbook = Assert.Single(snapshot.OfType("Microsoft.Insights/workbooks"));
        Assert.Equal("shared", workbook["kind"]!.GetValue<string>());
        var appInsights = Assert.Single(snapshot.OfType("Microsoft.Insights/components"))["id"]!.GetValue<string>();
        var serviceBus = Assert.Single(snapshot.OfType("Microsoft.ServiceBus/namespaces"))["id"]!.GetValue<string>();
        Assert.Equal(appInsights, workbook["properties"]!["sourceId"]!.GetValue<string>());

        // The deployed content is the workbook file with both placeholders replaced by those resource ids.
        var file = Repo.Read(KqlTests.Workbook.File);
        var expected = file.Replace("__APP_INSIGHTS_ID__", appInsights, StringComparison.Ordinal).Replace("__SERVICE_BUS_ID__", serviceBus, StringComparison.Ordinal);
        Assert.NotEqual(file, expected);
        Assert.Equal(expected, workbook["properties"]!["serializedData"]!.GetValue<string>());
        Assert.Equal("Notebook/1.0", System.Text.Json.Nodes.JsonNode.Parse(file)!["version"]!.GetValue<string>());
    }

    internal static Dictionary<string, string> MainParameters()
    {
        using var document = JsonDocument.Parse(Repo.Read("infra/main.parameters.json"));
        return document.RootElement.GetProperty("parameters").EnumerateObject()
            .ToDictionary(p => p.Name, p => p.Value.GetProperty("value").ToString());
    }
}
