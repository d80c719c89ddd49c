using System.Globalization;
using Azure.Identity;
using Azure.Messaging.ServiceBus;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.DeadLetters;

namespace OrderDistribution.LoadTool.Tests.DeadLetters;

/// <summary>
/// <c>dead-letters --service-bus</c>: the letters the apps send to the Service Bus queue q-order-deadletter listed by
/// their sequence numbers, and one resubmitted to q-order-ingress as an order is sent. The parts that need no
/// namespace run here; the one that reads a deployed namespace skips without one.
/// </summary>
public sealed class ServiceBusDeadLettersTests
{
    /// <summary>A deployed namespace's host name (azd's output of that name), for the test that reads it.</summary>
    private const string DeployedNamespace = "ORDER_LOAD_TEST_SERVICEBUS_FQDN";

    private static readonly DeadLetter Letter = new(OrderTopology.IngressQueue, "e-7",
        "order 7: unknown delivery 'Overnight'", """{"OrderId":7,"Delivery":"Overnight"}""", DateTimeOffset.UnixEpoch);

    [Fact]
    public void A_message_is_listed_under_its_sequence_number_with_the_letter_it_holds()
    {
        var listed = ServiceBusDeadLetters.Listed(ServiceBusModelFactory.ServiceBusReceivedMessage(
            body: BinaryData.FromBytes(Letter.Serialize()), sequenceNumber: 42));
        var other = ServiceBusDeadLetters.Listed(ServiceBusModelFactory.ServiceBusReceivedMessage(
            body: BinaryData.FromString("order 8, not JSON"), sequenceNumber: 43));

        Assert.Equal(("42", Letter), listed);
        Assert.Equal(("43", (DeadLetter?)null), other);
    }

    [Fact]
    public void A_resubmitted_letter_is_its_body_as_it_was_sent_as_json()
    {
        var message = ServiceBusDeadLetters.Resubmission(Letter);

        Assert.Equal(Letter.Body, message.Body.ToString());
        Assert.Equal("application/json", message.ContentType);
        Assert.Empty(message.ApplicationProperties);
    }

    [Fact]
    public async Task An_id_that_is_no_sequence_number_is_refused_before_the_namespace_is_reached()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync(
            "dead-letters", "--service-bus", "sb-unreachable.invalid", "--resubmit", "1765083936940-0");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("No whole dead letter 1765083936940-0 on q-order-deadletter", cli.Output,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task Two_brokers_at_once_are_refused()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync("dead-letters", "--redis", "127.0.0.1:6379", "--rabbitmq",
            "amqp://guest:guest@127.0.0.1:5672/orders");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("--redis, --rabbitmq and --service-bus each name the queue's broker: give one.", cli.Output,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_deployed_namespaces_letters_are_listed_as_a_peek_sees_them_and_none_is_taken_off()
    {
        var fqdn = Environment.GetEnvironmentVariable(DeployedNamespace);
        Assert.SkipWhen(string.IsNullOrEmpty(fqdn),
            $"no Azure: set {DeployedNamespace} to a deployed namespace's host name and sign in (az login) as a user " +
            "with Azure Service Bus Data Receiver on q-order-deadletter");
        await using var client = new ServiceBusClient(fqdn, new DefaultAzureCredential());
        var before = await new ServiceBusDeadLetters(client).ListAsync(TestContext.Current.CancellationToken);

        var cli = new Cli();
        var exit = await cli.RunAsync("dead-letters", "--service-bus", fqdn);
        var missing = new Cli();
        var refused = await missing.RunAsync(
            "dead-letters", "--service-bus", fqdn, "--resubmit", long.MaxValue.ToString(CultureInfo.InvariantCulture));

        Assert.True(exit == 0, cli.Output);
        Assert.Equal(ExitCodes.BadInput, refused);
        Assert.All(before, letter => Assert.Contains($"{letter.Id} ", cli.Output, StringComparison.Ordinal));
        var after = await new ServiceBusDeadLetters(client).ListAsync(TestContext.Current.CancellationToken);
        Assert.Superset(before.Select(l => l.Id).ToHashSet(), after.Select(l => l.Id).ToHashSet());
    }
}
