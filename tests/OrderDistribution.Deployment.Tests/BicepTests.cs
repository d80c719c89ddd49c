using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

public class BicepTests
{
    private static readonly string[] BindingNames = Contract.Bindings.Select(b => b.Name).ToArray();

    [Fact]
    public void The_container_apps_use_the_dapr_app_ids_of_dapr_yaml_as_app_and_role_names()
    {
        var apps = BicepFacts.ContainerApps();
        var runFileIds = DaprRunFile.Load(DaprRunFile.PubSub).Apps.Select(a => a.Id);

        Assert.Equal(runFileIds, apps.Select(a => BicepFile.StringLiteral(a.ModuleParams["daprAppId"])));
        foreach (var app in apps)
        {
            var p = app.ModuleParams;
            // The container app name is the cloud role name the KQL queries filter on.
            Assert.Equal(p["daprAppId"], p["name"]);
            Assert.Equal(p["daprAppId"], p["serviceName"]);
        }
    }

    [Fact]
    public void Bicep_declares_the_dapr_components_the_apps_need_and_no_local_only_one()
    {
        var names = BicepFacts.Components().Select(c => c.Name).ToList();

        Assert.Equal(BindingNames.Prepend(Contract.PubSubName).Order(StringComparer.Ordinal), names.Order(StringComparer.Ordinal));
        Assert.DoesNotContain(Contract.LocalIngressOutput.Name, names);
    }

    [Theory]
    [InlineData("pubsub")]
    [InlineData("bindings")]
    public void Bicep_scopes_follow_the_model_parameter(string model)
    {
        foreach (var component in BicepFacts.Components())
        {
            var live = component.Name == Contract.PubSubName ? model == "pubsub" : model == "bindings";
            string[] expected = !live
                ? [Contract.PlaceholderScope]
                : component.Name == Contract.PubSubName
                    ? Contract.AppIds
                    : [Contract.Bindings.Single(b => b.Name == component.Name).AppId];
            Assert.Equal(expected, component.ScopesWhen(model));
        }
    }

    [Fact]
    public void Bicep_component_scopes_name_only_app_ids_of_dapr_yaml_or_the_placeholder()
    {
        var allowed = DaprRunFile.Load(DaprRunFile.PubSub).Apps.Select(a => a.Id).Append(Contract.PlaceholderScope).ToHashSet();
        foreach (var component in BicepFacts.Components())
        {
            foreach (var model in new[] { "pubsub", "bindings" })
            {
                Assert.All(component.ScopesWhen(model), scope => Assert.Contains(scope, allowed));
            }
        }
    }

    [Fact]
    public void Order_pubsub_is_service_bus_queues_tuned_by_parameters()
    {
        var pubSub = BicepFacts.Component(Contract.PubSubName);

        Assert.Equal("pubsub.azure.servicebus.queues", pubSub.ComponentType);
        Assert.Equal("true", pubSub.Metadata["disableEntityManagement"]);
        Assert.Equal("serviceBusNamespaceFqdn", pubSub.Metadata["namespaceName"]);
        Assert.Equal("string(maxActiveMessages)", pubSub.Metadata["maxActiveMessages"]);
        Assert.Equal("string(maxConcurrentHandlers)", pubSub.Metadata["maxConcurrentHandlers"]);
        Assert.Equal("string(handlerTimeoutInSec)", pubSub.Metadata["handlerTimeoutInSec"]);
        Assert.Equal("string(lockRenewalInSec)", pubSub.Metadata["lockRenewalInSec"]);
        // The component ignores maxBulkPubBytes at this level (it reads it from each bulk publish request).
        Assert.False(pubSub.Metadata.ContainsKey("maxBulkPubBytes"));
    }

    [Theory]
    [InlineData("bulk", 250, 1)]
    [InlineData("single", 128, 64)]
    public void Order_pubsub_gets_the_handler_settings_of_the_chosen_pubsub_mode(string mode, int activeMessages, int handlers)
    {
        var main = BicepFacts.MainFile();
        var module = main.Modules("modules/dapr-components.bicep").Single().ModuleParams;
        var given = new Dictionary<string, string> { ["daprPubSubModel"] = mode };

        Assert.Equal(activeMessages, BicepArithmetic.EvaluateExpression(main, module["maxActiveMessages"], given));
        Assert.Equal(handlers, BicepArithmetic.EvaluateExpression(main, module["maxConcurrentHandlers"], given));
    }

    [Fact]
    public void Single_mode_runs_many_handlers_while_bulk_keeps_the_seeds_one_handler_filling_whole_bulks()
    {
        var main = BicepFacts.MainFile();
        var module = main.Modules("modules/dapr-components.bicep").Single().ModuleParams;
        int Handlers(string mode) => BicepArithmetic.EvaluateExpression(main, module["maxConcurrentHandlers"], new Dictionary<string, string> { ["daprPubSubModel"] = mode });
        int Active(string mode) => BicepArithmetic.EvaluateExpression(main, module["maxActiveMessages"], new Dictionary<string, string> { ["daprPubSubModel"] = mode });

        Assert.Equal(1, Handlers("bulk"));
        Assert.Equal(AppSettings.Load(Contract.DistributorSettings).RequiredInt("Messaging:MaxMessagesCount"), Active("bulk"));
        Assert.True(Handlers("single") > 1, "single mode with one handler handles one message at a time");
        Assert.True(Active("single") >= Handlers("single"), "fewer active messages than handlers leaves handlers idle");
    }

    [Fact]
    public void Each_binding_is_a_service_bus_queue_binding_with_its_apps_identity()
    {
        var clientIdParam = new Dictionary<string, string>
        {
            [Contract.Distributor] = "distributorClientId",
            [Contract.ReceiverExpress] = "receiverExpressClientId",
            [Contract.ReceiverStandard] = "receiverStandardClientId",
        };
        foreach (var binding in Contract.Bindings)
        {
            var component = BicepFacts.Component(binding.Name);
            Assert.Equal("bindings.azure.servicebusqueues", component.ComponentType);
            Assert.Equal(binding.Queue, component.Metadata["queueName"]);
            Assert.Equal(binding.Direction, component.Metadata["direction"]);
            Assert.Equal("true", component.Metadata["disableEntityManagement"]);
            Assert.Equal(clientIdParam[binding.AppId], component.Metadata["azureClientId"]);
        }
    }

    [Fact]
    public void Service_bus_holds_the_three_queues_and_storage_the_three_containers()
    {
        Assert.Equal(Contract.Queues, BicepFacts.Queues());
        Assert.Equal(Contract.BlobContainers, BicepFacts.BlobContainers());

    }

    [Theory]
    [InlineData("Standard", 262144)]
    [InlineData("Premium", 1048576)]
    public void The_service_bus_sku_parameter_drives_the_namespace_tier_and_the_byte_budget(string sku, int tierBatchLimit)
    {
        var main = BicepFacts.MainFile();
        var module = main.Modules("modules/servicebus.bicep").Single().ModuleParams;
        Assert.Equal("serviceBusSku", module["sku"]);
        Assert.Equal("serviceBusMessagingUnits", module["messagingUnits"]);

        var file = BicepFile.Load("infra/modules/servicebus.bicep");
        var namespaceSku = BicepFile.Ternary(BicepFile.Property(file.Resources("Microsoft.ServiceBus/namespaces@").Single().Body, "sku")!)!.Value;
        Assert.Equal("sku == 'Premium'", namespaceSku.Condition);
        var chosen = BicepFile.ObjectProperties(sku == "Premium" ? namespaceSku.WhenTrue : namespaceSku.WhenFalse);
        Assert.Equal($"'{sku}'", chosen["name"]);
        Assert.Equal($"'{sku}'", chosen["tier"]);
        Assert.Equal(sku == "Premium" ? "messagingUnits" : null, chosen.GetValueOrDefault("capacity"));

        // The budget follows the tier, under its batch cap with room for framing, inside the apps' valid range.
        var budget = BicepFacts.MaxBulkPubBytes(sku);
        Assert.InRange(budget, tierBatchLimit - 16 * 1024, tierBatchLimit - 1024);
        Assert.InRange(budget, 1024, 1048576);
        Assert.Contains("{ name: 'Messaging__MaxBulkPublishBytes', value: string(maxBulkPubBytes) }", main.Var("messagingEnv"), StringComparison.Ordinal);
        Assert.Contains("MAX_BULK_PUBLISH_BYTES", main.Outputs);
    }

    [Fact]
    public void A_tier_change_deploys_a_new_namespace_because_service_bus_cannot_change_tier_in_place()
    {
        var main = BicepFacts.MainFile();
        var names = BicepFile.Ternary(main.Var("serviceBusName"))!.Value;
        Assert.Equal("serviceBusSku == 'Premium'", names.Condition);
        Assert.NotEqual(names.WhenTrue, names.WhenFalse);
        Assert.Equal("'sb-${resourceToken}'", names.WhenFalse);
    }

    [Fact]
    public void The_storage_account_refuses_shared_key_access()
    {
        var account = BicepFile.Load("infra/modules/storage.bicep").Resources("Microsoft.Storage/storageAccounts@").Single();
        Assert.Equal("false", BicepFile.PropertyPath(account.Body, "properties", "allowSharedKeyAccess"));
    }

    [Fact]
    public void Each_receiver_identity_may_write_only_its_own_outbox()
    {
        var assignments = BicepFile.ArrayItems(ConcatFirstArray(BicepFacts.MainFile().Var("containerRoleAssignments")))
            .Select(BicepFile.ObjectProperties)
            .Select(p => (Who: BicepFile.StringLiteral(p["who"]), Container: BicepFile.StringLiteral(p["container"])))
            .ToList();

        Assert.Equal([("receiverExpress", "express-outbox"), ("receiverStandard", "standard-outbox")], assignments);
    }

    [Fact]
    public void Every_container_app_gets_the_model_settings_and_its_identity()
    {
        var main = BicepFacts.MainFile();
        var messagingEnv = main.Var("messagingEnv");
        Assert.Contains("{ name: 'Messaging__PubSubMode', value: daprPubSubModel }", messagingEnv, StringComparison.Ordinal);
        Assert.Contains("{ name: 'Messaging__MaxMessagesCount', value: string(maxMessagesCount) }", messagingEnv, StringComparison.Ordinal);

        foreach (var app in BicepFacts.ContainerApps())
        {
            var env = app.ModuleParams["env"];
            Assert.Contains("messagingEnv", env, StringComparison.Ordinal);
            var appId = BicepFile.StringLiteral(app.ModuleParams["daprAppId"])!;
            if (appId.StartsWith("receiver-", StringComparison.Ordinal))
            {
                var instance = appId["receiver-".Length..];
                Assert.Contains($"{{ name: 'INSTANCE', value: '{instance}' }}", env, StringComparison.Ordinal);
                Assert.Contains("{ name: 'Storage__AccountUrl', value: storage.outputs.blobEndpoint }", env, StringComparison.Ordinal);
            }
        }

        var module = BicepFile.Load(BicepFacts.ContainerApp).Text;
        Assert.Contains("{ name: 'AZURE_CLIENT_ID', value: identityClientId }", module, StringComparison.Ordinal);
        Assert.Contains("{ name: 'APPLICATIONINSIGHTS_CONNECTION_STRING', secretRef: 'appinsights-connection-string' }", module, StringComparison.Ordinal);
    }

    [Fact]
    public void The_container_app_module_runs_dapr_internal_ingress_probes_and_queue_scaling()
    {
        var file = BicepFile.Load(BicepFacts.ContainerApp);
        var app = file.Resources("Microsoft.App/containerApps@").Single();
        var configuration = BicepFile.PropertyPath(app.Body, "properties", "configuration")!;

        Assert.Equal("8080", file.Var("port"));
        Assert.Equal("true", BicepFile.PropertyPath(configuration, "dapr", "enabled"));
        Assert.Equal("daprAppId", BicepFile.PropertyPath(configuration, "dapr", "appId"));
        Assert.Equal("port", BicepFile.PropertyPath(configuration, "dapr", "appPort"));
        Assert.Equal("'http'", BicepFile.PropertyPath(configuration, "dapr", "appProtocol"));
        Assert.Equal("false", BicepFile.PropertyPath(configuration, "ingress", "external"));
        Assert.Contains("'azd-service-name': serviceName", app["tags"], StringComparison.Ordinal);

        var probes = BicepFile.ArrayItems(file.Var("probes")).ToDictionary(
            probe => BicepFile.StringLiteral(BicepFile.Property(probe.Trim()[1..^1], "type")!)!,
            probe => BicepFile.StringLiteral(BicepFile.PropertyPath(probe, "httpGet", "path")!));
        // Liveness never checks dependencies: a storage outage must not restart containers.
        Assert.Equal(Contract.LivenessPath, probes["Liveness"]);
        Assert.Equal(Contract.ReadinessPath, probes["Readiness"]);

        var scale = BicepFile.PropertyPath(app.Body, "properties", "template", "scale")!;
        Assert.Contains("type: 'azure-servicebus'", scale, StringComparison.Ordinal);
        Assert.Contains("identity: identityId", scale, StringComparison.Ordinal);
        Assert.Contains("queueName: scaleQueueName", scale, StringComparison.Ordinal);
    }

    [Fact]
    public void Each_app_scales_on_the_queue_it_reads()
    {
        var main = BicepFacts.MainFile();
        var expected = new Dictionary<string, string>
        {
            [Contract.Distributor] = Contract.IngressQueue,
            [Contract.ReceiverExpress] = Contract.ExpressQueue,
            [Contract.ReceiverStandard] = Contract.StandardQueue,
        };
        foreach (var app in BicepFacts.ContainerApps())
        {
            var appId = BicepFile.StringLiteral(app.ModuleParams["daprAppId"])!;
            Assert.Equal(expected[appId], BicepFacts.ResolveMember(main, app.ModuleParams["scaleQueueName"]));
        }
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
    [InlineData("daprComponentsModel", "${DAPR_COMPONENTS_MODEL=pubsub}")]
    [InlineData("daprPubSubModel", "${DAPR_PUBSUB_MODEL=bulk}")]
    [InlineData("maxMessagesCount", "${MAX_MESSAGES_COUNT=250}")]
    [InlineData("maxActiveMessages", "${MAX_ACTIVE_MESSAGES=250}")]
    [InlineData("maxConcurrentHandlers", "${MAX_CONCURRENT_HANDLERS=1}")]
    [InlineData("singleMaxActiveMessages", "${SINGLE_MAX_ACTIVE_MESSAGES=128}")]
    [InlineData("singleMaxConcurrentHandlers", "${SINGLE_MAX_CONCURRENT_HANDLERS=64}")]
    [InlineData("bindingConsumersPerQueue", "${BINDING_CONSUMERS_PER_QUEUE=4}")]
    [InlineData("serviceBusSku", "${SERVICE_BUS_SKU=Standard}")]
    [InlineData("serviceBusMessagingUnits", "${SERVICE_BUS_MESSAGING_UNITS=1}")]
    [InlineData("deliveryDeadlineSeconds", "${DELIVERY_DEADLINE_SECONDS=10}")]
    public void Main_parameters_json_maps_the_azd_variables(string parameter, string value) =>
        Assert.Equal(value, MainParameters().GetValueOrDefault(parameter));

    [RequiresBicepFact]
    public void Main_bicep_outputs_what_azd_and_the_scripts_need()
    {
        var outputs = BicepCompiler.Main["outputs"]!.AsObject().Select(o => o.Key).ToList();
        foreach (var name in new[]
                 {
                     "AZURE_RESOURCE_GROUP", "AZURE_CONTAINER_REGISTRY_ENDPOINT", "AZURE_CONTAINER_APPS_ENVIRONMENT_NAME",
                     "SERVICEBUS_NAMESPACE", "SERVICEBUS_NAMESPACE_FQDN", "STORAGE_ACCOUNT_NAME", "STORAGE_BLOB_ENDPOINT",
                     "APPLICATIONINSIGHTS_NAME", "LOG_ANALYTICS_WORKSPACE_ID", "DAPR_PLACEHOLDER_SCOPE",
                 })
        {
            Assert.Contains(name, outputs);
        }

        Assert.Equal($"'{Contract.PlaceholderScope}'", BicepFile.Load(BicepFacts.DaprComponents).Var("placeholderScope"));
    }

    [RequiresBicepFact]
    public void Main_bicep_targets_the_subscription_and_creates_the_resource_group()
    {
        Assert.Contains("subscriptionDeploymentTemplate", BicepCompiler.Main["$schema"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Single(BicepCompiler.Main["resources"]!.AsArray(), r => r!["type"]!.GetValue<string>() == "Microsoft.Resources/resourceGroups");
    }

    [Fact]
    public void Probes_are_set_only_when_the_app_runs_its_real_image_not_azds_placeholder()
    {
        var file = BicepFile.Load(BicepFacts.ContainerApp);
        var container = BicepFile.ArrayItems(BicepFile.PropertyPath(
            file.Resources("Microsoft.App/containerApps@").Single().Body, "properties", "template", "containers")!).Single();

        Assert.Equal("image", BicepFile.PropertyPath(container, "image"));
        var probes = BicepFile.Ternary(BicepFile.PropertyPath(container, "probes")!)!.Value;
        Assert.Equal("[]", probes.WhenFalse.Replace(" ", "", StringComparison.Ordinal));
        Assert.Equal("probes", probes.WhenTrue);
        // The condition is the image itself: `exists` is true after a provision that left the placeholder running.
        Assert.Equal("runsRealImage", probes.Condition);
        Assert.Equal("image != placeholderImage", file.Var("runsRealImage"));
        Assert.StartsWith("fetchImage.outputs", file.Var("image"), StringComparison.Ordinal);
        Assert.EndsWith("?? placeholderImage", file.Var("image"), StringComparison.Ordinal);
    }

    [RequiresBicepFact]
    public void No_container_app_runs_the_dapr_app_health_check_which_stops_bulk_subscriptions_and_input_bindings_for_good()
    {
        // dapr-wire 16: a subscription or input binding stopped by app health wedged daprd 1.14.
        // Backpressure is the apps' per-entry RETRY answer; the container probes stay.
        var apps = ContainerAppResources().ToList();
        Assert.Equal(3, apps.Count);
        Assert.All(apps, app => Assert.DoesNotContain("appHealth", app["properties"]!["configuration"]!.ToJsonString(), StringComparison.Ordinal));
    }

    [RequiresBicepFact]
    public void Single_mode_bounds_the_deliveries_each_sidecar_runs_into_its_app_with_the_handlers_number_and_nothing_else_does()
    {
        var main = BicepFacts.MainFile();
        var bound = BicepFile.Ternary(main.Var("daprMaxConcurrency"))!.Value;
        Assert.Equal("daprComponentsModel == 'pubsub' && daprPubSubModel == 'single'", bound.Condition);
        Assert.Equal("singleMaxConcurrentHandlers", bound.WhenTrue);
        Assert.Equal("0", bound.WhenFalse);
        Assert.Equal(64, BicepArithmetic.Evaluate(main, "singleMaxConcurrentHandlers"));
        Assert.All(BicepFacts.ContainerApps(), app => Assert.Equal("daprMaxConcurrency", app.ModuleParams["daprMaxConcurrency"]));

        // The compiled app sets Container Apps' dapr.maxConcurrency from it, only when it is above 0.
        Assert.All(ContainerAppResources(), app =>
        {
            var dapr = app["properties"]!["configuration"]!["dapr"]!.GetValue<string>();
            Assert.Contains("if(greater(parameters('daprMaxConcurrency'), 0), createObject('maxConcurrency', parameters('daprMaxConcurrency')), createObject())", dapr, StringComparison.Ordinal);
        });
    }

    [RequiresBicepFact]
    public void Azd_up_deploys_the_burst_workbook_beside_application_insights_with_the_real_resource_ids()
    {
        var workbook = Assert.Single(BicepCompiler.Resources(BicepCompiler.Main), r => r["type"]?.GetValue<string>() == "Microsoft.Insights/workbooks");
        Assert.Equal("shared", workbook["kind"]!.GetValue<string>());
        Assert.Contains("Microsoft.Insights/components", workbook["properties"]!["sourceId"]!.GetValue<string>(), StringComparison.Ordinal);

        // The compiled content is the workbook file with both placeholders replaced by resource ids.
        var module = BicepFile.Load("infra/modules/workbook.bicep");
        Assert.Equal("replace(replace(loadTextContent('../workbook/bursts.workbook.json'), '__APP_INSIGHTS_ID__', appInsights.id), '__SERVICE_BUS_ID__', serviceBus.id)",
            module.Var("content"));
        var file = Repo.Read(KqlTests.Workbook.File);
        Assert.Contains("__APP_INSIGHTS_ID__", file, StringComparison.Ordinal);
        Assert.Contains("__SERVICE_BUS_ID__", file, StringComparison.Ordinal);
        Assert.Equal("Notebook/1.0", System.Text.Json.Nodes.JsonNode.Parse(file)!["version"]!.GetValue<string>());
        Assert.Equal("serviceBus.outputs.name", BicepFacts.MainFile().Modules("modules/workbook.bicep").Single().ModuleParams["serviceBusNamespaceName"]);
    }

    /// <summary>The container apps infra/ deploys, from the compiled ARM JSON.</summary>
    internal static IEnumerable<System.Text.Json.Nodes.JsonObject> ContainerAppResources() =>
        BicepCompiler.Resources(BicepCompiler.Main).Where(r => r["type"]?.GetValue<string>() == "Microsoft.App/containerApps");

    internal static Dictionary<string, string> MainParameters()
    {
        using var document = JsonDocument.Parse(Repo.Read("infra/main.parameters.json"));
        return document.RootElement.GetProperty("parameters").EnumerateObject()
            .ToDictionary(p => p.Name, p => p.Value.GetProperty("value").ToString());
    }

    private static string ConcatFirstArray(string expression)
    {
        var e = expression.Trim();
        Assert.StartsWith("concat(", e, StringComparison.Ordinal);
        return BicepFile.ArrayItems("[" + e["concat(".Length..^1] + "]")[0];
    }
}
