using System.Globalization;

namespace OrderDistribution.Deployment.Tests;

public class ComponentTests
{
    private const string PubSubFolder = "components-pubsub";
    private const string BindingsFolder = "components-bindings";

    [Fact]
    public void Every_app_id_in_dapr_yaml_is_in_the_scope_of_each_component_it_needs()
    {
        var pubSub = DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder);
        foreach (var app in DaprRunFile.Load(DaprRunFile.PubSub).Apps)
        {
            Assert.Contains(app.Id, pubSub.Scopes);
        }

        var bindings = DaprComponent.LoadFolder(BindingsFolder);
        var appIds = DaprRunFile.Load(DaprRunFile.Bindings).Apps.Select(a => a.Id).ToList();
        foreach (var binding in Contract.Bindings.Append(Contract.LocalIngressOutput))
        {
            Assert.Contains(binding.AppId, appIds);
            Assert.Equal([binding.AppId], DaprComponent.Named(bindings, binding.Name, BindingsFolder).Scopes);
        }
    }

    [Fact]
    public void Every_component_is_scoped_and_only_to_apps_of_its_run_file()
    {
        foreach (var (runFile, folder) in DaprRunFile.Models)
        {
            var appIds = DaprRunFile.Load(runFile).Apps.Select(a => a.Id).ToHashSet();
            foreach (var component in DaprComponent.LoadFolder(folder))
            {
                Assert.NotEmpty(component.Scopes);
                Assert.All(component.Scopes, scope => Assert.Contains(scope, appIds));
            }
        }
    }

    [Fact]
    public void The_pubsub_folder_holds_order_pubsub_on_local_redis()
    {
        var component = Assert.Single(DaprComponent.LoadFolder(PubSubFolder));

        Assert.Equal(Contract.PubSubName, component.Name);
        Assert.Equal("pubsub.redis", component.Type);
        Assert.Equal("localhost:6379", component["redisHost"]);
    }

    [Fact]
    public void The_bindings_folder_holds_each_queue_edge_as_a_rabbitmq_binding_named_as_the_apps_expect()
    {
        var components = DaprComponent.LoadFolder(BindingsFolder);
        var expected = Contract.Bindings.Append(Contract.LocalIngressOutput).ToList();
        var distributor = AppSettings.Load(Contract.DistributorSettings);

        Assert.Equal(expected.Select(b => b.Name).Order(StringComparer.Ordinal), components.Select(c => c.Name).Order(StringComparer.Ordinal));
        foreach (var binding in expected)
        {
            var component = DaprComponent.Named(components, binding.Name, BindingsFolder);
            Assert.Equal("bindings.rabbitmq", component.Type);
            Assert.Equal(binding.Queue, component["queueName"]);
            Assert.Equal(binding.Direction, component["direction"]);
            Assert.Equal([binding.AppId], component.Scopes);
            Assert.EndsWith($"-{binding.Direction}", binding.Name, StringComparison.Ordinal);
        }

        // The names the distributor's settings use are components of this folder, in the right direction.
        Assert.Equal("input", DaprComponent.Named(components, distributor.Required("Distributor:IngressInputBinding"), BindingsFolder)["direction"]);
        Assert.Equal("output", DaprComponent.Named(components, distributor.Required("Distributor:ExpressOutputBinding"), BindingsFolder)["direction"]);
        Assert.Equal("output", DaprComponent.Named(components, distributor.Required("Distributor:StandardOutputBinding"), BindingsFolder)["direction"]);
    }

    [Fact]
    public void Rabbitmq_bindings_use_only_metadata_the_component_defines()
    {
        // components-contrib bindings/rabbitmq/metadata.yaml, plus the runtime's direction and route.
        string[] known =
        [
            "host", "queueName", "durable", "deleteWhenUnused", "ttlInSeconds", "prefetchCount", "exclusive",
            "maxPriority", "contentType", "reconnectWaitInSeconds", "caCert", "clientCert", "clientKey",
            "externalSasl", "direction", "route",
        ];
        foreach (var component in DaprComponent.LoadFolder(BindingsFolder))
        {
            Assert.All(component.Metadata.Keys, key => Assert.True(known.Contains(key), $"{component.File}: {key} is not a bindings.rabbitmq field"));
        }
    }

    [Fact]
    public void Rabbitmq_bindings_reach_the_local_broker_as_its_loopback_guest_user()
    {
        foreach (var component in DaprComponent.LoadFolder(BindingsFolder))
        {
            var host = new Uri(component["host"] ?? throw new Xunit.Sdk.XunitException($"{component.File} has no host"));
            Assert.Equal("amqp", host.Scheme);
            Assert.Equal("127.0.0.1", host.Host);
            Assert.Equal(5672, host.Port);
            Assert.Equal("guest:guest", host.UserInfo);
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_component_on_one_queue_declares_it_the_same_durable_shared_way()
    {
        // Each sidecar declares its queue; RabbitMQ refuses a declaration that differs from the
        // first (PRECONDITION_FAILED) and the binding is left without a channel.
        string[] declared = ["durable", "deleteWhenUnused", "exclusive", "ttlInSeconds", "maxPriority"];
        using var rendered = RenderedBindings.Default();
        foreach (var queue in DaprComponent.LoadFolder(BindingsFolder).Concat(rendered.Components).GroupBy(c => c["queueName"]))
        {
            foreach (var key in declared)
            {
                Assert.Single(queue.Select(c => c[key]).Distinct());
            }

            foreach (var component in queue)
            {
                Assert.Equal("true", component["durable"]);
                // Auto-delete would drop the queue and its waiting orders with its last consumer.
                Assert.Equal("false", component["deleteWhenUnused"]);
                Assert.NotEqual("true", component["exclusive"]);
                // A queue TTL would expire valid orders waiting out an outage.
                Assert.Null(component["ttlInSeconds"]);
            }
        }
    }

    [Fact]
    public void The_committed_bindings_folder_has_one_input_consumer_per_queue_so_a_plain_dapr_run_works()
    {
        // `dapr run -f dapr.bindings.yaml` loads this folder as it is: no consumer may name a route or a component
        // that only scripts/run-local.sh renders.
        var inputs = DaprComponent.LoadFolder(BindingsFolder).Where(c => c["direction"] == "input").ToList();

        Assert.Equal(
            Contract.Bindings.Where(b => b.Direction == "input").Select(b => (b.Name, b.Queue)).Order(),
            inputs.Select(c => (c.Name, c["queueName"]!)).Order());
        Assert.All(inputs, c => Assert.Null(c["route"]));
        Assert.Equal(inputs.Select(c => c.Name).Order(StringComparer.Ordinal),
            Assert.Single(DaprResiliency.LoadFolder(BindingsFolder)).InboundByComponent.Keys.Order(StringComparer.Ordinal));
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("1")]
    [InlineData("2")]
    [InlineData("7")]
    [InlineData("16")]
    public void Run_local_renders_the_set_number_of_consumers_per_queue_each_delivering_to_the_first_ones_route_with_its_resiliency(string setting)
    {
        using var rendered = RenderedBindings.With(setting);

        AssertConsumersPerQueue(rendered, int.Parse(setting, CultureInfo.InvariantCulture));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_renders_as_many_consumers_per_queue_by_default_as_azure_runs_handlers_by_default()
    {
        using var rendered = RenderedBindings.Default();

        // main.parameters.json gives azd's default for the same setting: ${BINDING_CONSUMERS_PER_QUEUE=4}.
        var azure = BicepTests.MainParameters()["bindingConsumersPerQueue"];
        var azureDefault = int.Parse(azure[(azure.IndexOf('=', StringComparison.Ordinal) + 1)..^1], CultureInfo.InvariantCulture);
        Assert.Equal($"${{{RenderedBindings.Setting}={azureDefault}}}", azure);
        AssertConsumersPerQueue(rendered, azureDefault);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_rendered_folder_is_the_committed_one_plus_the_further_consumers_and_their_resiliency_entries()
    {
        using var rendered = RenderedBindings.With("3");
        var committed = Repo.PathOf(BindingsFolder);

        foreach (var file in Directory.EnumerateFiles(committed).Where(f => Path.GetFileName(f) != "resiliency.yaml"))
        {
            Assert.Equal(File.ReadAllText(file), File.ReadAllText(Path.Combine(rendered.Folder, Path.GetFileName(file))));
        }

        var further = rendered.Components.Select(c => c.Name).Except(DaprComponent.LoadFolder(BindingsFolder).Select(c => c.Name)).ToList();
        Assert.Equal(2 * Contract.Bindings.Count(b => b.Direction == "input"), further.Count);
        var source = Assert.Single(DaprResiliency.LoadFolder(BindingsFolder));
        Assert.Equal(source.Retries, rendered.Resiliency.Retries);
        Assert.Equal(source.Timeouts, rendered.Resiliency.Timeouts);
        Assert.Equal(source.Scopes, rendered.Resiliency.Scopes);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Rabbitmq_input_bindings_set_no_global_prefetch_which_the_quorum_queues_of_the_local_vhost_refuse()
    {
        // bindings.rabbitmq makes prefetchCount a global prefetch (basic.qos global=true), and RabbitMQ refuses a
        // consumer of a quorum queue on such a channel (docs/dapr-sidecar.md, "bindings.rabbitmq's channel"; the Brokers tests' BindingChannelTests
        // shows it on RabbitMQ itself).
        using var rendered = RenderedBindings.Default();
        foreach (var input in rendered.Components.Where(c => c["direction"] == "input"))
        {
            Assert.True(
                (input["prefetchCount"] ?? "0") == "0",
                $"{input.Name}: prefetchCount \"{input["prefetchCount"]}\", a global prefetch its quorum queue refuses");
        }
    }

    /// <summary>
    /// bindings.rabbitmq hands its app one message at a time: the consumers of a queue are how many orders its app
    /// takes on at once, and RabbitMQ spreads the queue across them. Each is the first one under its own name,
    /// delivering to the one route its app serves, retried as the first one is.
    /// </summary>
    private static void AssertConsumersPerQueue(RenderedBindings rendered, int consumers)
    {
        var components = rendered.Components;
        var inputs = components.Where(c => c["direction"] == "input").ToList();
        var resiliency = rendered.Resiliency;
        foreach (var binding in Contract.Bindings.Where(b => b.Direction == "input"))
        {
            var first = DaprComponent.Named(components, binding.Name, rendered.Folder);
            var queue = inputs.Where(c => c["queueName"] == binding.Queue).ToList();
            Assert.Equal(
                Enumerable.Range(1, consumers).Select(k => k == 1 ? binding.Name : $"{binding.Name}-{k}").Order(StringComparer.Ordinal),
                queue.Select(c => c.Name).Order(StringComparer.Ordinal));
            foreach (var consumer in queue)
            {
                Assert.Equal($"/{binding.Name}", consumer["route"] ?? $"/{consumer.Name}");
                Assert.Equal([binding.AppId], consumer.Scopes);
                Assert.Equal(first.Type, consumer.Type);
                Assert.Equal(first.Metadata.Where(m => m.Key != "route"), consumer.Metadata.Where(m => m.Key != "route"));
                Assert.Equal(resiliency.InboundByComponent[binding.Name], resiliency.InboundByComponent[consumer.Name]);
            }
        }

        Assert.Equal(inputs.Select(c => c.Name).Order(StringComparer.Ordinal), resiliency.InboundByComponent.Keys.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Redis_hands_out_a_pending_message_again_only_after_the_longest_request_and_its_margin()
    {
        var redis = DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder);
        var processingTimeout = GoDuration.Parse(redis["processingTimeout"]);
        var deadline = RequestDeadline.Longest();

        // Any shorter and a batch the app is still answering is handed out a second time.
        Assert.True(processingTimeout >= deadline + TimeSpan.FromSeconds(5),
            $"processingTimeout {processingTimeout} is not 5 s above the apps' delivery deadline {deadline}");
        // Far below the component's 60 s default: recovery waits for this timer.
        Assert.True(processingTimeout <= TimeSpan.FromSeconds(30), $"processingTimeout {processingTimeout} delays recovery");
    }

    [Fact]
    public void Redis_looks_for_messages_to_redeliver_every_few_seconds()
    {
        var redis = DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder);
        var redeliverInterval = GoDuration.Parse(redis["redeliverInterval"]);
        var processingTimeout = GoDuration.Parse(redis["processingTimeout"]);

        // 0 disables redelivery; a quarter of processingTimeout at most adds little to it.
        Assert.True(redeliverInterval > TimeSpan.Zero, "redeliverInterval 0 disables redelivery");
        Assert.True(redeliverInterval * 4 <= processingTimeout, $"redeliverInterval {redeliverInterval} is long next to processingTimeout {processingTimeout}");
    }

    [Fact]
    public void Redis_never_acknowledges_a_delivery_that_failed()
    {
        var redis = DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder);

        // ackOnError would drop a message once the resiliency retries ran out: a lost order.
        Assert.NotEqual("true", redis["ackOnError"]?.ToLowerInvariant());
    }

    [Fact]
    public void Redis_streams_have_no_length_cap_that_could_drop_unread_entries()
    {
        var redis = DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder);

        // A cap trims the oldest entries whether a consumer group has read them or not; the local run trims up to
        // what the groups still need instead (scripts/trim-streams.lua, tested on real Redis).
        Assert.Null(redis["maxLenApprox"]);
        Assert.Null(redis["maxLen"]);
    }

    [Fact]
    public void Each_model_folder_has_one_resiliency_spec_for_the_inbound_side_of_its_components()
    {
        var expectedTargets = new Dictionary<string, string[]>
        {
            [PubSubFolder] = [Contract.PubSubName],
            [BindingsFolder] = DaprComponent.LoadFolder(BindingsFolder).Where(c => c["direction"] == "input").Select(c => c.Name).ToArray(),
        };
        foreach (var (runFile, folder) in DaprRunFile.Models)
        {
            var spec = Assert.Single(DaprResiliency.LoadFolder(folder));
            var components = DaprComponent.LoadFolder(folder).Select(c => c.Name).ToHashSet();
            var appIds = DaprRunFile.Load(runFile).Apps.Select(a => a.Id).ToHashSet();

            Assert.Equal("dapr.io/v1alpha1", spec.ApiVersion);
            Assert.Equal(expectedTargets[folder].Order(StringComparer.Ordinal), spec.InboundByComponent.Keys.Order(StringComparer.Ordinal));
            Assert.All(spec.InboundByComponent.Keys, name => Assert.Contains(name, components));
            Assert.All(spec.Scopes, scope => Assert.Contains(scope, appIds));
            foreach (var (component, inbound) in spec.InboundByComponent)
            {
                Assert.True(inbound.Retry is not null, $"{folder}: {component} inbound has no retry policy");
                Assert.True(spec.Retries.ContainsKey(inbound.Retry!), $"{folder}: {component} names retry policy {inbound.Retry}, which does not exist");
                Assert.True(inbound.Timeout is null || spec.Timeouts.ContainsKey(inbound.Timeout), $"{folder}: {component} names a missing timeout {inbound.Timeout}");
                Assert.True(inbound.CircuitBreaker is null || spec.CircuitBreakers.Contains(inbound.CircuitBreaker), $"{folder}: {component} names a missing circuit breaker");
            }
        }
    }

    [Fact]
    public void Input_binding_retry_policies_give_up_after_a_bounded_time_and_leave_the_message_to_the_broker()
    {
        foreach (var (name, retry) in Assert.Single(DaprResiliency.LoadFolder(BindingsFolder)).Retries)
        {
            // Dapr's default maxRetries is -1, forever; RabbitMQ requeues the message once they are spent.
            Assert.InRange(retry.MaxRetriesOrDefault, 1, 60);
            Assert.True(GoDuration.Parse(retry.Duration ?? "5s") * retry.MaxRetriesOrDefault <= TimeSpan.FromMinutes(1), $"{name} retries longer than a minute");
        }
    }

    /// <summary>
    /// From Dapr 1.17 pubsub.redis acknowledges a message whose retries are spent while its delivery's context still
    /// runs; the context ends at processingTimeout. Retries that always outlast it leave every message answered RETRY
    /// pending on every runtime (docs/runtimes.md, "Retries of a request").
    /// </summary>
    [Fact]
    public void The_pubsub_retries_outlast_processingTimeout_so_no_runtime_acknowledges_a_message_answered_RETRY()
    {
        var processingTimeout = GoDuration.Parse(DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder)["processingTimeout"]);
        var spec = Assert.Single(DaprResiliency.LoadFolder(PubSubFolder));
        var retry = spec.Retries[spec.InboundByComponent[Contract.PubSubName].Retry!];

        Assert.True(retry.MaxRetriesOrDefault == -1 || GoDuration.Parse(retry.Duration) * retry.MaxRetriesOrDefault > processingTimeout,
            $"{retry.MaxRetriesOrDefault} retries of {retry.Duration} end before processingTimeout {processingTimeout}");
        // A retry at least every few seconds: the rest of a burst is stored soon after storage answers again.
        Assert.True(GoDuration.Parse(retry.Duration) <= TimeSpan.FromSeconds(2), $"retries {retry.Duration} apart");
    }

    [Fact]
    public void Inbound_attempts_outlast_the_apps_request_deadline_and_end_before_redis_hands_the_message_out_again()
    {
        var deadline = RequestDeadline.Longest();
        var processingTimeout = GoDuration.Parse(DaprComponent.Named(DaprComponent.LoadFolder(PubSubFolder), Contract.PubSubName, PubSubFolder)["processingTimeout"]);
        foreach (var (_, folder) in DaprRunFile.Models)
        {
            var spec = Assert.Single(DaprResiliency.LoadFolder(folder));
            foreach (var (component, inbound) in spec.InboundByComponent)
            {
                // A timeout below the deadline would cut off answers the app is about to give.
                var timeout = GoDuration.Parse(spec.Timeouts[inbound.Timeout ?? throw new Xunit.Sdk.XunitException($"{folder}: {component} has no inbound timeout")]);
                Assert.True(timeout > deadline, $"{folder}: {component} inbound timeout {timeout} is not above the delivery deadline {deadline}");
                if (folder == PubSubFolder)
                {
                    Assert.True(timeout < processingTimeout, $"inbound timeout {timeout} is not below processingTimeout {processingTimeout}");
                }
            }
        }
    }

    /// <summary>
    /// daprd 1.14 ignores <c>matching.httpStatusCodes</c> (read from 1.15 on) and retries every failure: a policy that
    /// relies on it differs by runtime. So no policy has it, and in the bindings model the apps never answer 400 (an
    /// invalid or oversized order is answered 200 after its drop), so retrying every failure retries only what a retry
    /// can fix, on every runtime.
    /// </summary>
    [Fact]
    public void Input_bindings_retry_an_unavailable_app_the_same_way_on_every_runtime_and_never_an_invalid_order()
    {
        foreach (var (_, folder) in DaprRunFile.Models)
        {
            var spec = Assert.Single(DaprResiliency.LoadFolder(folder));
            Assert.All(spec.Retries, retry => Assert.Null(retry.Value.HttpStatusCodes));
        }

        var bindings = Assert.Single(DaprResiliency.LoadFolder(BindingsFolder));
        foreach (var (component, inbound) in bindings.InboundByComponent)
        {
            Assert.True(bindings.Retries[inbound.Retry!].RetriesStatus(503), $"{component}: the app's 503 (try again) is not retried");
        }

        var runFile = DaprRunFile.Load(DaprRunFile.Bindings);
        Assert.All(runFile.Apps, app => Assert.Equal(
            "Drop", app.Env.GetValueOrDefault("Messaging__InvalidBindingMessage")));
    }

    [Fact]
    public void Each_model_folder_has_a_dapr_configuration()
    {
        foreach (var (_, folder) in DaprRunFile.Models)
        {
            var config = Yaml.LoadMapping(Repo.Read($"{folder}/config.yaml"));
            Assert.Equal("Configuration", config.Scalar("kind"));
            Assert.Equal("dapr.io/v1alpha1", config.Scalar("apiVersion"));
        }
    }
}
