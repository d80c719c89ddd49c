namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The local Dapr components of each model folder: scoped to the apps that need them, named and wired as the apps
/// expect, on the local brokers.
/// </summary>
public class ComponentTests
{
    [Fact]
    public void Every_app_id_in_dapr_yaml_is_in_the_scope_of_each_component_it_needs()
    {
        var pubSub = ComponentFolders.LocalPubSub();
        foreach (var app in DaprRunFile.Load(DaprRunFile.PubSub).Apps)
        {
            Assert.Contains(app.Id, pubSub.Scopes);
        }

        var bindings = DaprComponent.LoadFolder(ComponentFolders.Bindings);
        var appIds = DaprRunFile.Load(DaprRunFile.Bindings).Apps.Select(a => a.Id).ToList();
        foreach (var binding in Contract.Bindings.Append(Contract.LocalIngressOutput))
        {
            Assert.Contains(binding.AppId, appIds);
            Assert.Equal([binding.AppId],
                DaprComponent.Named(bindings, binding.Name, ComponentFolders.Bindings).Scopes);
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
        var component = Assert.Single(DaprComponent.LoadFolder(ComponentFolders.PubSub));

        Assert.Equal(Contract.PubSubName, component.Name);
        Assert.Equal("pubsub.redis", component.Type);
        Assert.Equal("localhost:6379", component["redisHost"]);
    }

    [Fact]
    public void The_bindings_folder_holds_each_queue_edge_as_a_rabbitmq_binding_named_as_the_apps_expect()
    {
        var components = DaprComponent.LoadFolder(ComponentFolders.Bindings);
        var expected = Contract.Bindings.Append(Contract.LocalIngressOutput).ToList();
        var distributor = AppSettings.Load(Contract.DistributorSettings);

        Assert.Equal(expected.Append(Contract.DeadLetterOutput).Select(b => b.Name).Order(StringComparer.Ordinal),
            components.Select(c => c.Name).Order(StringComparer.Ordinal));
        foreach (var binding in expected)
        {
            var component = DaprComponent.Named(components, binding.Name, ComponentFolders.Bindings);
            Assert.Equal("bindings.rabbitmq", component.Type);
            Assert.Equal(binding.Queue, component["queueName"]);
            Assert.Equal(binding.Direction, component["direction"]);
            Assert.Equal([binding.AppId], component.Scopes);
            Assert.EndsWith($"-{binding.Direction}", binding.Name, StringComparison.Ordinal);
        }

        // The names the distributor's settings use are components of this folder, in the right direction.
        Assert.Equal("input",
            DaprComponent.Named(components, distributor.Required("Distributor:IngressInputBinding"),
            ComponentFolders.Bindings)["direction"]);
        Assert.Equal("output",
            DaprComponent.Named(components, distributor.Required("Distributor:ExpressOutputBinding"),
            ComponentFolders.Bindings)["direction"]);
        Assert.Equal("output",
            DaprComponent.Named(components, distributor.Required("Distributor:StandardOutputBinding"),
            ComponentFolders.Bindings)["direction"]);
    }

    [Fact]
    public void Every_app_reaches_the_dead_letter_queue_the_code_names_in_every_model()
    {
        var binding = DaprComponent.Named(DaprComponent.LoadFolder(ComponentFolders.Bindings),
            Contract.DeadLetterOutput.Name, ComponentFolders.Bindings);
        Assert.Equal("bindings.rabbitmq", binding.Type);
        Assert.Equal(Contract.DeadLetterQueue, binding["queueName"]);
        Assert.Equal("output", binding["direction"]);
        Assert.Equal(Contract.AppIds.Order(StringComparer.Ordinal), binding.Scopes.Order(StringComparer.Ordinal));

        // The pub/sub models publish to the topic of the same name on order-pubsub, which every app may use.
        var pubSub = DaprComponent.Named(DaprComponent.LoadFolder(ComponentFolders.PubSub), Contract.PubSubName,
            ComponentFolders.PubSub);
        Assert.Equal(Contract.AppIds.Order(StringComparer.Ordinal), pubSub.Scopes.Order(StringComparer.Ordinal));
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
        foreach (var component in DaprComponent.LoadFolder(ComponentFolders.Bindings))
        {
            Assert.All(component.Metadata.Keys,
                key => Assert.True(known.Contains(key), $"{component.File}: {key} is not a bindings.rabbitmq field"));
        }
    }

    [Fact]
    public void Rabbitmq_bindings_reach_the_local_broker_as_its_loopback_guest_user()
    {
        foreach (var component in DaprComponent.LoadFolder(ComponentFolders.Bindings))
        {
            var host = new Uri(component["host"]
                ?? throw new Xunit.Sdk.XunitException($"{component.File} has no host"));
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
        foreach (var queue in DaprComponent.LoadFolder(ComponentFolders.Bindings).Concat(rendered.Components)
            .GroupBy(c => c["queueName"]))
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
