using OrderDistribution.TestSupport.Brokers;
using OrderDistribution.TestSupport.Components;
using RabbitMQ.Client;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// scripts/run-local.sh's own vhost step (<c>--rabbitmq-vhost</c>, what its bindings start runs) on a real RabbitMQ,
/// then a connection to every bindings component's vhost as the component makes it: guest, over AMQP, its queue
/// declared. A vhost without guest's permissions refuses the sidecars at start (403).
/// </summary>
public class RunLocalVhostTests(ITestOutputHelper output)
{
    [Fact]
    public async Task On_a_fresh_rabbitmq_the_vhost_step_lets_every_bindings_component_connect_and_declare_its_queue()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        await using var rabbit = await RabbitMqServer.StartAsync();

        output.WriteLine(await LocalRabbitMq.MakeVhostAsync(rabbit));

        await ConnectAsComponentsDoAsync(rabbit);
    }

    [Fact]
    public async Task Where_the_vhost_exists_without_guests_permissions_the_vhost_step_gives_them()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        await using var rabbit = await RabbitMqServer.StartAsync();
        foreach (var vhost in Inputs().Select(LocalRabbitMq.VhostOf).Distinct())
        {
            await rabbit.ControlAsync("add_vhost", vhost, "--default-queue-type", "quorum");
        }

        output.WriteLine(await LocalRabbitMq.MakeVhostAsync(rabbit));

        await ConnectAsComponentsDoAsync(rabbit);
    }

    private static List<DaprComponent> Inputs() =>
        [.. DaprComponent.LoadFolder(LocalRabbitMq.ComponentsFolder).Where(c => c.Type == "bindings.rabbitmq")];

    private async Task ConnectAsComponentsDoAsync(RabbitMqServer rabbit)
    {
        var components = Inputs();
        Assert.NotEmpty(components);
        foreach (var component in components)
        {
            var factory = new ConnectionFactory
            {
                Uri = new Uri(rabbit.AmqpUri, LocalRabbitMq.VhostOf(component)),
                AutomaticRecoveryEnabled = false,
            };
            await using var connection = await factory.CreateConnectionAsync();
            await using var channel = await connection.CreateChannelAsync();
            await channel.QueueDeclareAsync(
                component["queueName"]!,
                durable: bool.Parse(component["durable"] ?? "true"),
                exclusive: bool.Parse(component["exclusive"] ?? "false"),
                autoDelete: bool.Parse(component["deleteWhenUnused"] ?? "false"),
                arguments: new Dictionary<string, object?>());
            output.WriteLine(
                $"{component.File}: connected to vhost '{LocalRabbitMq.VhostOf(component)}' as guest and declared " +
                $"{component["queueName"]}");
        }

        // The step's other half: the vhost's queues are quorum queues (they keep what they accepted through a crash).
        var queues = await rabbit.ControlAsync("-q", "list_queues", "-p", LocalRabbitMq.VhostOf(components[0]), "name",
            "type");
        Assert.All(components.Select(c => c["queueName"]!).Distinct(), queue =>
            Assert.Contains(queues.Split('\n'), line => line.Split('\t') is [var name, "quorum"] && name == queue));
    }
}
