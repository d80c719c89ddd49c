namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh after the load tool, with a fake az: the queues drained and each queue's dead letters
/// reported, whatever az fails to read.
/// </summary>
public sealed class AzureBurstDrainTests
{
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reports_each_queues_dead_letter_count_from_the_deployed_subscription()
    {
        using var azure = new FakeAzure();
        azure.Respond("q-order-ingress", "0").Respond("q-order-express", "3").Respond("q-order-standard", "2");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--dead-letters-only");

        Assert.True(exitCode == 0, output);
        Assert.Contains("dead-lettered: q-order-ingress 0", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-express 3", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-standard 2", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 5", output, StringComparison.Ordinal);
        var calls = azure.Calls.Where(c => c.StartsWith("servicebus queue show", StringComparison.Ordinal)).ToList();
        Assert.Equal(3, calls.Count);
        Assert.All(calls, call =>
        {
            Assert.Contains($"--subscription {FakeAzure.Subscription}", call, StringComparison.Ordinal);
            Assert.Contains("--namespace-name sb-fake", call, StringComparison.Ordinal);
            Assert.Contains("--query [countDetails.deadLetterMessageCount]", call, StringComparison.Ordinal);
        });
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_counts_scheduled_messages_as_still_on_the_queues_while_draining()
    {
        using var azure = new FakeAzure();
        // No active message anywhere, but 5 scheduled on each queue: a burst not yet visible is not drained.
        azure.Respond("activeMessageCount", "0\t5").Respond("deadLetterMessageCount", "0");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--drain-only", "--drain-timeout", "0");

        Assert.Equal(1, exitCode);
        Assert.Contains("still on the queues after 0 s: 15 messages (active and scheduled)", output,
            StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 0", output, StringComparison.Ordinal);
        Assert.All(azure.Calls.Where(c => c.Contains("activeMessageCount", StringComparison.Ordinal)), call =>
            Assert.Contains("--query [countDetails.activeMessageCount,countDetails.scheduledMessageCount]", call,
                StringComparison.Ordinal));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reports_an_az_failure_while_draining_and_still_prints_the_dead_letter_report()
    {
        using var azure = new FakeAzure();
        azure.Fail("activeMessageCount", "(AuthorizationFailed) no read access to the namespace")
            .Respond("deadLetterMessageCount", "2");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--drain-only", "--drain-timeout", "0");

        Assert.Equal(1, exitCode);
        Assert.Contains(
            "az could not read q-order-ingress: ERROR: (AuthorizationFailed) no read access to the namespace", output,
            StringComparison.Ordinal);
        Assert.Contains("could not read q-order-ingress q-order-express q-order-standard", output,
            StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-standard 2 (now 2 in its dead-letter queue)", output,
            StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 6", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reports_a_queue_whose_dead_letters_az_cannot_read_and_goes_on_with_the_others()
    {
        using var azure = new FakeAzure();
        azure.Fail("--name q-order-express --query [countDetails.deadLetterMessageCount]",
            "(ResourceNotFound) queue not found")
            .Respond("deadLetterMessageCount", "1");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--dead-letters-only");

        Assert.Equal(1, exitCode);
        Assert.Contains("dead-lettered: q-order-express unknown (az failed, see above)", output,
            StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-standard 1 (now 1 in its dead-letter queue)", output,
            StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 2 (and the queues az could not read)", output,
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_refuses_a_count_that_is_not_a_number()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--count", "ten", "--dead-letters-only");
        Assert.Equal(2, exitCode);
        Assert.Contains("not a number: ten", output, StringComparison.Ordinal);
    }
}
