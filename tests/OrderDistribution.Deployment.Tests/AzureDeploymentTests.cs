using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>Model switch, least privilege and the timers derived from the delivery deadline, read from infra/.</summary>
public partial class AzureDeploymentTests
{
    private const string Receiver = "4f6d3b9b-027b-4f4c-9142-0e5a2a2247e0";
    private const string Sender = "69a216fc-b8fb-44d8-bc22-1f3c2cd27a39";
    private const string Owner = "090c5cfd-751d-490a-894a-3ce6f1109419";

    private static readonly string[] InboundComponents =
        [Contract.PubSubName, .. Contract.Bindings.Where(b => b.Direction == "input").Select(b => b.Name)];

    [Fact]
    public void Every_app_template_carries_the_model_and_every_component_setting_so_a_switch_starts_new_sidecars()
    {
        var main = BicepFacts.MainFile();
        var messagingEnv = main.Var("messagingEnv");
        Assert.Contains("{ name: 'DAPR_COMPONENTS_MODEL', value: daprComponentsModel }", messagingEnv, StringComparison.Ordinal);
        Assert.Contains("{ name: 'DAPR_COMPONENTS_STAMP', value: daprComponentsStamp }", messagingEnv, StringComparison.Ordinal);
        Assert.All(BicepFacts.ContainerApps(), app => Assert.Contains("messagingEnv", app.ModuleParams["env"], StringComparison.Ordinal));

        // Whatever main.bicep hands the components module must change the stamp when it changes.
        var stamp = Identifiers(main.Var("daprComponentsStamp"));
        var module = main.Modules("modules/dapr-components.bicep").Single();
        foreach (var (name, value) in module.ModuleParams)
        {
            var required = value switch
            {
                // Stable for an azd environment: the environment and the identities' client ids.
                "containerAppsEnvironment.outputs.name" => null,
                _ when value.StartsWith("identities.outputs.", StringComparison.Ordinal) => null,
                // The namespace follows its name.
                "serviceBus.outputs.fqdn" => "serviceBusName",
                _ => value.Trim(),
            };
            if (required is not null)
            {
                Assert.True(stamp.Contains(required), $"daprComponentsStamp does not change with {name} ({required})");
            }
        }

        // The apps' revisions are built after the components changed.
        Assert.All(BicepFacts.ContainerApps(), app => Assert.Contains("daprComponents", app["dependsOn"], StringComparison.Ordinal));
    }

    [Fact]
    public void Each_queue_role_belongs_to_exactly_what_uses_it_and_nothing_else()
    {
        var main = BicepFacts.MainFile();
        var appKey = new Dictionary<string, string>
        {
            [Contract.Distributor] = "distributor",
            [Contract.ReceiverExpress] = "receiverExpress",
            [Contract.ReceiverStandard] = "receiverStandard",
        };

        // User-assigned identities: binding components (input receives, output sends), the KEDA scaler
        // (Data Owner on the queue it scales on), and the user's load tool (sends the burst).
        var expectedUserAssigned = Contract.Bindings
            .Select(b => (appKey[b.AppId], b.Queue, b.Direction == "input" ? Receiver : Sender))
            .Concat(BicepFacts.ContainerApps().Select(app => (
                appKey[BicepFile.StringLiteral(app.ModuleParams["daprAppId"])!],
                BicepFacts.ResolveMember(main, app.ModuleParams["scaleQueueName"]),
                Owner)))
            .Append(("user", Contract.IngressQueue, Sender))
            .ToHashSet();
        Assert.Equal(expectedUserAssigned.OrderBy(x => x.ToString(), StringComparer.Ordinal), Assignments(main, main.Var("queueRoleAssignments")));

        // System-assigned identities (order-pubsub): the distributor receives ingress and sends to both
        // delivery queues; each receiver receives its own queue.
        var expectedPubSub = new[]
        {
            ("distributor", Contract.IngressQueue, Receiver),
            ("distributor", Contract.ExpressQueue, Sender),
            ("distributor", Contract.StandardQueue, Sender),
            ("receiverExpress", Contract.ExpressQueue, Receiver),
            ("receiverStandard", Contract.StandardQueue, Receiver),
        };
        Assert.Equal(expectedPubSub.OrderBy(x => x.ToString(), StringComparer.Ordinal), Assignments(main, main.Var("pubSubRoleAssignments")));
    }

    [Fact]
    public void Order_pubsub_signs_in_with_each_apps_own_system_assigned_identity_not_a_shared_one()
    {
        Assert.False(BicepFacts.Component(Contract.PubSubName).Metadata.ContainsKey("azureClientId"));
        Assert.DoesNotContain("messaging", BicepFile.Load("infra/modules/identities.bicep").Text, StringComparison.OrdinalIgnoreCase);

        var file = BicepFile.Load(BicepFacts.ContainerApp);
        var app = file.Resources("Microsoft.App/containerApps@").Single();
        Assert.Equal("'SystemAssigned,UserAssigned'", BicepFile.PropertyPath(app.Body, "identity", "type"));
        Assert.Contains("principalId", file.Outputs);

        var main = BicepFacts.MainFile();
        var principals = BicepFile.ObjectProperties(main.Var("appPrincipalIds"));
        Assert.Equal("distributor.outputs.principalId", principals["distributor"]);
        Assert.Equal("receiverExpress.outputs.principalId", principals["receiverExpress"]);
        Assert.Equal("receiverStandard.outputs.principalId", principals["receiverStandard"]);
    }

    [Fact]
    public void Every_inbound_component_has_a_bounded_retry_policy_and_no_circuit_breaker()
    {
        var file = BicepFile.Load(BicepFacts.DaprComponents);
        var symbols = file.Resources("Microsoft.App/managedEnvironments/daprComponents@")
            .ToDictionary(b => b.Symbol, b => BicepFile.StringLiteral(b["name"]!)!);
        var policies = file.Resources("Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies@").ToList();

        Assert.Equal(InboundComponents.Order(StringComparer.Ordinal),
            policies.Select(p => symbols[p["parent"]!.Trim()]).Order(StringComparer.Ordinal));
        Assert.All(policies, p => Assert.Equal("inboundPolicy", BicepFile.PropertyPath(p.Body, "properties", "inboundPolicy")));

        var inbound = file.Var("inboundPolicy");
        Assert.Equal("inboundAttemptTimeoutSeconds", BicepFile.PropertyPath(inbound, "timeoutPolicy", "responseTimeoutInSeconds"));
        Assert.Equal("inboundMaxRetries", BicepFile.PropertyPath(inbound, "httpRetryPolicy", "maxRetries"));
        Assert.Equal("inboundInitialDelayMs", BicepFile.PropertyPath(inbound, "httpRetryPolicy", "retryBackOff", "initialDelayInMilliseconds"));
        Assert.Equal("inboundMaxIntervalMs", BicepFile.PropertyPath(inbound, "httpRetryPolicy", "retryBackOff", "maxIntervalInMilliseconds"));
        // An open breaker fails deliveries at once, and Service Bus counts each towards maxDeliveryCount.
        Assert.Null(BicepFile.PropertyPath(inbound, "circuitBreakerPolicy"));

        var main = BicepFacts.MainFile();
        Assert.InRange(BicepArithmetic.Evaluate(main, "inboundMaxRetries"), 1, 10);
    }

    [Fact]
    public void The_apps_get_the_delivery_deadline_the_infrastructure_timers_are_derived_from()
    {
        var main = BicepFacts.MainFile();
        var deadline = BicepArithmetic.Evaluate(main, "deliveryDeadlineSeconds");

        Assert.Equal(DeliveryDeadline.Longest(), TimeSpan.FromSeconds(deadline));
        Assert.Contains("{ name: 'Messaging__DeliveryDeadline', value: '00:00:${padLeft(string(deliveryDeadlineSeconds), 2, '0')}' }",
            main.Var("messagingEnv"), StringComparison.Ordinal);
    }

    [Fact]
    public void Sidecar_and_broker_timers_outlast_the_delivery_deadline_with_margin()
    {
        var main = BicepFacts.MainFile();
        int Value(string name) => BicepArithmetic.Evaluate(main, name);
        var deadline = Value("deliveryDeadlineSeconds");
        var attempt = Value("inboundAttemptTimeoutSeconds");
        var retries = Value("inboundMaxRetries");
        var longestDelivery = (retries + 1) * attempt + retries * Value("inboundMaxIntervalMs") / 1000;

        // One attempt may take the whole deadline; the inbound timeout only cuts off a hanging app.
        Assert.True(attempt >= deadline + 5, $"inbound attempt timeout {attempt} s leaves no margin over the {deadline} s deadline");
        // Dapr's handler timeout must not cancel a delivery that is still retrying.
        Assert.True(Value("handlerTimeoutInSec") > longestDelivery, $"handlerTimeoutInSec {Value("handlerTimeoutInSec")} <= longest delivery {longestDelivery} s");
        // The lock survives one failed renewal and covers an unrenewed attempt several times over.
        var lockSeconds = Value("lockDurationSeconds");
        Assert.True(lockSeconds >= 2 * Value("lockRenewalInSec") + 10, $"lock {lockSeconds} s vs renewal every {Value("lockRenewalInSec")} s");
        Assert.True(lockSeconds >= 3 * deadline, $"lock {lockSeconds} s vs deadline {deadline} s");

        // Those numbers are what the queues and components get.
        var serviceBus = main.Modules("modules/servicebus.bicep").Single().ModuleParams;
        Assert.Equal("'PT${lockDurationSeconds}S'", serviceBus["lockDuration"]);
        var components = main.Modules("modules/dapr-components.bicep").Single().ModuleParams;
        foreach (var name in new[] { "handlerTimeoutInSec", "lockRenewalInSec", "inboundAttemptTimeoutSeconds", "inboundMaxRetries", "inboundInitialDelayMs", "inboundMaxIntervalMs" })
        {
            Assert.Equal(name, components[name]);
        }

        foreach (var name in InboundComponents)
        {
            var component = BicepFacts.Component(name);
            Assert.Equal("string(handlerTimeoutInSec)", component.Metadata["handlerTimeoutInSec"]);
            Assert.Equal("string(lockRenewalInSec)", component.Metadata["lockRenewalInSec"]);
        }
    }

    [Fact]
    public void Every_service_bus_component_reconnects_within_half_a_minute_not_dapr_s_default_five_minutes()
    {
        var main = BicepFacts.MainFile();
        var recovery = BicepArithmetic.Evaluate(main, "connectionRecoveryMaxSeconds");
        Assert.InRange(recovery, 5, 60);
        Assert.Equal("connectionRecoveryMaxSeconds", main.Modules("modules/dapr-components.bicep").Single().ModuleParams["connectionRecoveryMaxSeconds"]);

        Assert.All(BicepFacts.Components(), component =>
            Assert.Equal("string(connectionRecoveryMaxSeconds)", component.Metadata.GetValueOrDefault("maxConnectionRecoveryInSec")));
    }

    [Fact]
    public void Each_azure_input_binding_runs_as_many_consumers_as_the_local_run_has_input_components_per_queue()
    {
        // Locally: RabbitMQ input components on one queue, each handing the app one message at a time.
        var local = DaprComponent.LoadFolder("components-bindings")
            .Where(c => c.Type == "bindings.rabbitmq" && (c["direction"] ?? "input").Contains("input", StringComparison.Ordinal))
            .GroupBy(c => c["queueName"] ?? "")
            .ToDictionary(g => g.Key, g => g.Count());
        var inputQueues = Contract.Bindings.Where(b => b.Direction == "input").Select(b => b.Queue).ToList();
        Assert.Equal(inputQueues.Order(StringComparer.Ordinal), local.Keys.Order(StringComparer.Ordinal));
        var perQueue = Assert.Single(local.Values.Distinct());

        // In Azure: one Service Bus input binding per queue, with that many handlers (and twice as many locked).
        var main = BicepFacts.MainFile();
        Assert.Equal(perQueue, BicepArithmetic.Evaluate(main, "bindingConsumersPerQueue"));
        Assert.Equal(perQueue, BicepArithmetic.Evaluate(main, "bindingMaxConcurrentHandlers"));
        Assert.Equal(2 * perQueue, BicepArithmetic.Evaluate(main, "bindingMaxActiveMessages"));
        foreach (var binding in Contract.Bindings.Where(b => b.Direction == "input"))
        {
            var component = BicepFacts.Component(binding.Name);
            Assert.Equal("string(bindingMaxConcurrentHandlers)", component.Metadata["maxConcurrentHandlers"]);
            Assert.Equal("string(bindingMaxActiveMessages)", component.Metadata["maxActiveMessages"]);
        }
    }

    private static List<(string Who, string Queue, string Role)> Assignments(BicepFile main, string expression)
    {
        var e = expression.Trim();
        var arrays = e.StartsWith("concat(", StringComparison.Ordinal)
            ? BicepFile.ArrayItems("[" + e["concat(".Length..^1] + "]")
                .Select(part => part.Trim())
                .Select(part => BicepFile.Ternary(part) is { } t ? t.WhenFalse : part)
            : [e];
        var roles = BicepFile.ObjectProperties(main.Var("roles"));
        return arrays.SelectMany(BicepFile.ArrayItems)
            .Select(BicepFile.ObjectProperties)
            .Select(p => (
                BicepFile.StringLiteral(p["who"])!,
                BicepFacts.ResolveMember(main, p["queue"]),
                BicepFile.StringLiteral(roles[p["role"].Split('.')[1]])!))
            .OrderBy(x => x.ToString(), StringComparer.Ordinal)
            .ToList();
    }

    private static HashSet<string> Identifiers(string expression) =>
        IdentifierRegex().Matches(expression).Select(m => m.Value).ToHashSet();

    [GeneratedRegex(@"[A-Za-z_]\w*")]
    private static partial Regex IdentifierRegex();
}
