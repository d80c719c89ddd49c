namespace OrderDistribution.Deployment.Tests;

public class ComponentTests
{
    private const string PubSubFolder = "components-pubsub";
    private const string BindingsFolder = "components-bindings";
    private static readonly string[] LoopbackHosts = ["127.0.0.1", "localhost"];

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
    public void The_bindings_folder_holds_each_queue_edge_as_a_storage_queue_binding()
    {
        var components = DaprComponent.LoadFolder(BindingsFolder);
        var expected = Contract.Bindings.Append(Contract.LocalIngressOutput).ToList();

        Assert.Equal(expected.Select(b => b.Name).Order(StringComparer.Ordinal), components.Select(c => c.Name).Order(StringComparer.Ordinal));
        foreach (var binding in expected)
        {
            var component = DaprComponent.Named(components, binding.Name, BindingsFolder);
            Assert.Equal("bindings.azure.storagequeues", component.Type);
            Assert.Equal(binding.Queue, component["queueName"]);
            Assert.Equal(binding.Direction, component["direction"]);
            Assert.EndsWith($"-{binding.Direction}", binding.Name, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Storage_queue_bindings_pass_message_bodies_through_undecoded()
    {
        foreach (var component in DaprComponent.LoadFolder(BindingsFolder))
        {
            Assert.Equal("false", component["decodeBase64"]);
        }
    }

    [Fact]
    public void Azurite_endpoints_carry_no_account_name()
    {
        foreach (var folder in new[] { PubSubFolder, BindingsFolder })
        {
            foreach (var component in DaprComponent.LoadFolder(folder))
            {
                foreach (var (key, value) in component.Metadata)
                {
                    if (!key.Contains("endpoint", StringComparison.OrdinalIgnoreCase))
                    {
                        continue;
                    }

                    var uri = new Uri(value);
                    Assert.True(uri.AbsolutePath is "" or "/", $"{component.File}: {key} {value} has a path (the account name?)");
                    Assert.Contains(uri.Host, LoopbackHosts);
                    Assert.Equal(key == "queueEndpointUrl" ? 10001 : 10000, uri.Port);
                }
            }
        }
    }

    [Fact]
    public void Storage_queue_bindings_name_an_azurite_queue_endpoint()
    {
        foreach (var component in DaprComponent.LoadFolder(BindingsFolder))
        {
            Assert.Equal("http://127.0.0.1:10001", component["queueEndpointUrl"]);
            Assert.Equal("devstoreaccount1", component["accountName"]);
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
