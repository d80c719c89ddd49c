namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// How Azure delivers to the apps, as infra/ deploys it: the sidecars' and the broker's timers derived from the
/// request deadline, bounded retries, reconnects, scale polling and the consumers on each queue.
/// </summary>
public sealed class AzureDeliveryTests
{
    private static readonly string[] InboundComponents =
        [Contract.PubSubName, .. Contract.Bindings.Where(b => b.Direction == "input").Select(b => b.Name)];

    [RequiresBicepFact]
    public void Every_scale_rule_polls_and_cools_down_at_stated_intervals_not_kedas_unstated_defaults()
    {
        Assert.All(InfraSnapshot.Default.ContainerApps, app =>
        {
            var scale = app.Resource["properties"]!["template"]!["scale"]!;
            Assert.Equal(10, scale["pollingInterval"]!.GetValue<int>());
            Assert.Equal(300, scale["cooldownPeriod"]!.GetValue<int>());
            Assert.Equal(1, scale["minReplicas"]!.GetValue<int>());
        });
    }

    [RequiresBicepFact]
    public void Every_inbound_component_has_a_bounded_retry_policy_and_no_circuit_breaker()
    {
        var policies = InfraSnapshot.Default.OfType(
            "Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies").ToList();

        Assert.Equal(InboundComponents.Order(StringComparer.Ordinal),
            policies.Select(p => p["name"]!.GetValue<string>().Split('/')[1]).Order(StringComparer.Ordinal));
        Assert.All(policies, p =>
        {
            var inbound = p["properties"]!["inboundPolicy"]!;
            Assert.InRange(inbound["httpRetryPolicy"]!["maxRetries"]!.GetValue<int>(), 1, 10);
            // An open breaker fails deliveries at once, and Service Bus counts each towards maxDeliveryCount.
            Assert.Null(inbound["circuitBreakerPolicy"]);
            Assert.Null(p["properties"]!["outboundPolicy"]);
        });
    }

    [RequiresBicepFact]
    public void The_apps_get_the_request_deadline_the_infrastructure_timers_are_derived_from()
    {
        var deadline = BicepCompiler.Main["parameters"]!["requestDeadlineSeconds"]!["defaultValue"]!.GetValue<int>();
        Assert.Equal(RequestDeadline.Longest(), TimeSpan.FromSeconds(deadline));
        Assert.All(InfraSnapshot.Default.ContainerApps,
            app => Assert.Equal("00:00:10", app.Env["Messaging__RequestDeadline"]));
        Assert.All(InfraSnapshot.Of(("requestDeadlineSeconds", 45)).ContainerApps,
            app => Assert.Equal("00:00:45", app.Env["Messaging__RequestDeadline"]));
    }

    [RequiresBicepTheory]
    [InlineData(1)]
    [InlineData(10)]
    [InlineData(50)]
    public void Sidecar_and_broker_timers_outlast_the_request_deadline_with_margin(int deadline)
    {
        var snapshot = InfraSnapshot.Of(("requestDeadlineSeconds", deadline));
        foreach (var name in InboundComponents)
        {
            var policy = Assert.Single(
                snapshot.OfType("Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies"),
                p => p["name"]!.GetValue<string>().Split('/')[1] == name)["properties"]!["inboundPolicy"]!;
            var attempt = policy["timeoutPolicy"]!["responseTimeoutInSeconds"]!.GetValue<int>();
            var retries = policy["httpRetryPolicy"]!["maxRetries"]!.GetValue<int>();
            var maxInterval =
                policy["httpRetryPolicy"]!["retryBackOff"]!["maxIntervalInMilliseconds"]!.GetValue<int>() / 1000;
            var longestDelivery = (retries + 1) * attempt + retries * maxInterval;
            var component = snapshot.Component(name);
            var handlerTimeout = component.IntMetadata("handlerTimeoutInSec");
            var lockRenewal = component.IntMetadata("lockRenewalInSec");

            // One attempt may take the whole deadline; the inbound timeout only cuts off a hanging app.
            Assert.True(attempt >= deadline + 5,
                $"{name}: inbound attempt timeout {attempt} s leaves no margin over the {deadline} s deadline");
            // Dapr's handler timeout must not cancel a delivery that is still retrying.
            Assert.True(handlerTimeout > longestDelivery,
                $"{name}: handlerTimeoutInSec {handlerTimeout} <= longest delivery {longestDelivery} s");

            // The lock survives one failed renewal and covers an unrenewed attempt several times over.
            var queue = name == Contract.PubSubName ? Contract.IngressQueue : Contract.Bindings.Single(b =>
                b.Name == name).Queue;
            var lockDuration = System.Xml.XmlConvert.ToTimeSpan(
                snapshot.Single("Microsoft.ServiceBus/namespaces/queues",
                queue)["properties"]!["lockDuration"]!.GetValue<string>());
            Assert.True(lockDuration.TotalSeconds >= 2 * lockRenewal + 10,
                $"lock {lockDuration} vs renewal every {lockRenewal} s");
            Assert.True(lockDuration.TotalSeconds >= 3 * Math.Min(deadline, 10) && lockDuration.TotalSeconds >= attempt,
                $"lock {lockDuration} vs deadline {deadline} s");
        }
    }

    [RequiresBicepFact]
    public void Every_service_bus_component_reconnects_within_half_a_minute_not_dapr_s_default_five_minutes()
    {
        Assert.All(InfraSnapshot.Default.Components, component =>
            Assert.InRange(component.IntMetadata("maxConnectionRecoveryInSec"), 5, 60));
    }

    [RequiresBicepFact]
    public void Each_azure_input_binding_runs_as_many_consumers_as_the_local_run_has_input_components_per_queue()
    {
        // Locally: the RabbitMQ input components on one queue scripts/run-local.sh renders by default, each handing
        // the app one message at a time.
        using var rendered = RenderedBindings.Default();
        var local = rendered.Components
            .Where(c => c.Type == "bindings.rabbitmq"
                && (c["direction"] ?? "input").Contains("input", StringComparison.Ordinal))
            .GroupBy(c => c["queueName"] ?? "")
            .ToDictionary(g => g.Key, g => g.Count());
        var inputQueues = Contract.Bindings.Where(b => b.Direction == "input").Select(b => b.Queue).ToList();
        Assert.Equal(inputQueues.Order(StringComparer.Ordinal), local.Keys.Order(StringComparer.Ordinal));
        var perQueue = Assert.Single(local.Values.Distinct());

        // In Azure, with main.parameters.json's default: one Service Bus input binding per queue, with that many
        // handlers (and twice as many locked).
        var snapshot = InfraSnapshot.Of(("messagingModel", "bindings"));
        Assert.Equal($"${{BINDING_CONSUMERS_PER_QUEUE={perQueue}}}",
            MainBicepTests.MainParameters()["bindingConsumersPerQueue"]);
        foreach (var binding in Contract.Bindings.Where(b => b.Direction == "input"))
        {
            var component = snapshot.Component(binding.Name);
            Assert.Equal(perQueue, component.IntMetadata("maxConcurrentHandlers"));
            Assert.Equal(2 * perQueue, component.IntMetadata("maxActiveMessages"));
        }
    }

    [RequiresBicepTheory]
    [InlineData("bindings")]
    [InlineData("pubsub-bulk")]
    public void Every_app_can_keep_what_it_refuses_on_the_dead_letter_queue_the_code_names(string model)
    {
        var snapshot = InfraSnapshot.Of(("messagingModel", model));
        Assert.Contains(Contract.DeadLetterQueue, snapshot.Queues);
        var binding = snapshot.Component(Contract.DeadLetterOutput.Name);
        Assert.Equal("bindings.azure.servicebusqueues", binding.ComponentType);
        Assert.Equal(Contract.DeadLetterQueue, binding.Metadata["queueName"]);
        Assert.Equal("output", binding.Metadata["direction"]);
        // In the bindings model through this binding; in the pub/sub models through order-pubsub, whose topic is the
        // queue of the same name.
        var (bindingScopes, pubSubScopes) = model == "bindings"
            ? (Contract.AppIds, [Contract.PlaceholderScope])
            : (new[] { Contract.PlaceholderScope }, Contract.AppIds);
        Assert.Equal(bindingScopes.Order(StringComparer.Ordinal), binding.Scopes.Order(StringComparer.Ordinal));
        Assert.Equal(pubSubScopes.Order(StringComparer.Ordinal),
            snapshot.Component(Contract.PubSubName).Scopes.Order(StringComparer.Ordinal));
    }
}
