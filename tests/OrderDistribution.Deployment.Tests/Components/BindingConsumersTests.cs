using System.Globalization;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The consumers of each queue in the bindings model: one in the committed folder, as many as the setting says in
/// the folder scripts/run-local.sh renders, each the first one under its own name.
/// </summary>
public class BindingConsumersTests
{
    [Fact]
    public void The_committed_bindings_folder_has_one_input_consumer_per_queue_so_a_plain_dapr_run_works()
    {
        // `dapr run -f dapr.bindings.yaml` loads this folder as it is: no consumer may name a route or a component
        // that only scripts/run-local.sh renders.
        var inputs = DaprComponent.LoadFolder(ComponentFolders.Bindings).Where(c => c["direction"] == "input").ToList();

        Assert.Equal(
            Contract.Bindings.Where(b => b.Direction == "input").Select(b => (b.Name, b.Queue)).Order(),
            inputs.Select(c => (c.Name, c["queueName"]!)).Order());
        Assert.All(inputs, c => Assert.Null(c["route"]));
        Assert.Equal(inputs.Select(c => c.Name).Order(StringComparer.Ordinal),
            Assert.Single(DaprResiliency.LoadFolder(ComponentFolders.Bindings)).InboundByComponent.Keys.Order(
                StringComparer.Ordinal));
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("1")]
    [InlineData("2")]
    [InlineData("7")]
    [InlineData("16")]
    public void Run_local_renders_the_set_consumers_per_queue_each_on_the_first_ones_route_and_resiliency(
        string setting)
    {
        using var rendered = RenderedBindings.With(setting);

        AssertConsumersPerQueue(rendered, int.Parse(setting, CultureInfo.InvariantCulture));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_renders_as_many_consumers_per_queue_by_default_as_azure_runs_handlers_by_default()
    {
        using var rendered = RenderedBindings.Default();

        // main.parameters.json gives azd's default for the same setting: ${BINDING_CONSUMERS_PER_QUEUE=4}.
        var azure = MainBicepTests.MainParameters()["bindingConsumersPerQueue"];
        var azureDefault = int.Parse(azure[(azure.IndexOf('=', StringComparison.Ordinal) + 1)..^1],
            CultureInfo.InvariantCulture);
        Assert.Equal($"${{{RenderedBindings.Setting}={azureDefault}}}", azure);
        AssertConsumersPerQueue(rendered, azureDefault);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_rendered_folder_is_the_committed_one_plus_the_further_consumers_and_their_resiliency_entries()
    {
        using var rendered = RenderedBindings.With("3");
        var committed = Repo.PathOf(ComponentFolders.Bindings);

        foreach (var file in Directory.EnumerateFiles(committed).Where(f => Path.GetFileName(f) != "resiliency.yaml"))
        {
            Assert.Equal(File.ReadAllText(file),
                File.ReadAllText(Path.Combine(rendered.Folder, Path.GetFileName(file))));
        }

        var further = rendered.Components.Select(c => c.Name)
            .Except(DaprComponent.LoadFolder(ComponentFolders.Bindings).Select(c => c.Name)).ToList();
        Assert.Equal(2 * Contract.Bindings.Count(b => b.Direction == "input"), further.Count);
        var source = Assert.Single(DaprResiliency.LoadFolder(ComponentFolders.Bindings));
        Assert.Equal(source.Retries, rendered.Resiliency.Retries);
        Assert.Equal(source.Timeouts, rendered.Resiliency.Timeouts);
        Assert.Equal(source.Scopes, rendered.Resiliency.Scopes);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Rabbitmq_input_bindings_set_no_global_prefetch_which_the_quorum_queues_of_the_local_vhost_refuse()
    {
        // bindings.rabbitmq makes prefetchCount a global prefetch (basic.qos global=true), and RabbitMQ refuses a
        // consumer of a quorum queue on such a channel (docs/dapr-sidecar.md, "bindings.rabbitmq's channel"; the
        // Brokers tests' BindingChannelTests shows it on RabbitMQ itself).
        using var rendered = RenderedBindings.Default();
        foreach (var input in rendered.Components.Where(c => c["direction"] == "input"))
        {
            Assert.True(
                (input["prefetchCount"] ?? "0") == "0",
                $"{input.Name}: prefetchCount \"{input["prefetchCount"]}\", a global prefetch its quorum queue " +
                $"refuses");
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
                Enumerable.Range(1, consumers).Select(k => k == 1 ? binding.Name : $"{binding.Name}-{k}")
                    .Order(StringComparer.Ordinal),
                queue.Select(c => c.Name).Order(StringComparer.Ordinal));
            foreach (var consumer in queue)
            {
                Assert.Equal($"/{binding.Name}", consumer["route"] ?? $"/{consumer.Name}");
                Assert.Equal([binding.AppId], consumer.Scopes);
                Assert.Equal(first.Type, consumer.Type);
                Assert.Equal(first.Metadata.Where(m => m.Key != "route"),
                    consumer.Metadata.Where(m => m.Key != "route"));
                Assert.Equal(resiliency.InboundByComponent[binding.Name], resiliency.InboundByComponent[consumer.Name]);
            }
        }

        Assert.Equal(inputs.Select(c => c.Name).Order(StringComparer.Ordinal),
            resiliency.InboundByComponent.Keys.Order(StringComparer.Ordinal));
    }
}
