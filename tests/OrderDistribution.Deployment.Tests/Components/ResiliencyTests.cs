namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Each model folder's resiliency spec: the inbound retries of its components, bounded, outlasting the request
/// deadline and processingTimeout, the same on every runtime.
/// </summary>
public class ResiliencyTests
{
    [Fact]
    public void Each_model_folder_has_one_resiliency_spec_for_the_inbound_side_of_its_components()
    {
        var expectedTargets = new Dictionary<string, string[]>
        {
            [ComponentFolders.PubSub] = [Contract.PubSubName],
            [ComponentFolders.Bindings] = DaprComponent.LoadFolder(ComponentFolders.Bindings)
                .Where(c => c["direction"] == "input").Select(c => c.Name).ToArray(),
        };
        foreach (var (runFile, folder) in DaprRunFile.Models)
        {
            var spec = Assert.Single(DaprResiliency.LoadFolder(folder));
            var components = DaprComponent.LoadFolder(folder).Select(c => c.Name).ToHashSet();
            var appIds = DaprRunFile.Load(runFile).Apps.Select(a => a.Id).ToHashSet();

            Assert.Equal("dapr.io/v1alpha1", spec.ApiVersion);
            Assert.Equal(expectedTargets[folder].Order(StringComparer.Ordinal),
                spec.InboundByComponent.Keys.Order(StringComparer.Ordinal));
            Assert.All(spec.InboundByComponent.Keys, name => Assert.Contains(name, components));
            Assert.All(spec.Scopes, scope => Assert.Contains(scope, appIds));
            foreach (var (component, inbound) in spec.InboundByComponent)
            {
                Assert.True(inbound.Retry is not null, $"{folder}: {component} inbound has no retry policy");
                Assert.True(spec.Retries.ContainsKey(inbound.Retry!),
                    $"{folder}: {component} names retry policy {inbound.Retry}, which does not exist");
                Assert.True(inbound.Timeout is null || spec.Timeouts.ContainsKey(inbound.Timeout),
                    $"{folder}: {component} names a missing timeout {inbound.Timeout}");
                Assert.True(inbound.CircuitBreaker is null || spec.CircuitBreakers.Contains(inbound.CircuitBreaker),
                    $"{folder}: {component} names a missing circuit breaker");
            }
        }
    }

    [Fact]
    public void Input_binding_retry_policies_give_up_after_a_bounded_time_and_leave_the_message_to_the_broker()
    {
        foreach (var (name, retry) in Assert.Single(DaprResiliency.LoadFolder(ComponentFolders.Bindings)).Retries)
        {
            // Dapr's default maxRetries is -1, forever; RabbitMQ requeues the message once they are spent.
            Assert.InRange(retry.MaxRetriesOrDefault, 1, 60);
            Assert.True(GoDuration.Parse(retry.Duration ?? "5s") * retry.MaxRetriesOrDefault <= TimeSpan.FromMinutes(1),
                $"{name} retries longer than a minute");
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
        var processingTimeout = GoDuration.Parse(ComponentFolders.LocalPubSub()["processingTimeout"]);
        var spec = Assert.Single(DaprResiliency.LoadFolder(ComponentFolders.PubSub));
        var retry = spec.Retries[spec.InboundByComponent[Contract.PubSubName].Retry!];

        Assert.True(retry.MaxRetriesOrDefault == -1
            || GoDuration.Parse(retry.Duration) * retry.MaxRetriesOrDefault > processingTimeout,
            $"{retry.MaxRetriesOrDefault} retries of {retry.Duration} end before processingTimeout " +
            $"{processingTimeout}");
        // A retry at least every few seconds: the rest of a burst is stored soon after storage answers again.
        Assert.True(GoDuration.Parse(retry.Duration) <= TimeSpan.FromSeconds(2), $"retries {retry.Duration} apart");
    }

    [Fact]
    public void Inbound_attempts_outlast_the_apps_request_deadline_and_end_before_redis_hands_the_message_out_again()
    {
        var deadline = RequestDeadline.Longest();
        var processingTimeout = GoDuration.Parse(ComponentFolders.LocalPubSub()["processingTimeout"]);
        foreach (var (_, folder) in DaprRunFile.Models)
        {
            var spec = Assert.Single(DaprResiliency.LoadFolder(folder));
            foreach (var (component, inbound) in spec.InboundByComponent)
            {
                // A timeout below the deadline would cut off answers the app is about to give.
                var timeout = GoDuration.Parse(
                    spec.Timeouts[inbound.Timeout
                    ?? throw new Xunit.Sdk.XunitException($"{folder}: {component} has no inbound timeout")]);
                Assert.True(timeout > deadline,
                    $"{folder}: {component} inbound timeout {timeout} is not above the delivery deadline {deadline}");
                if (folder == ComponentFolders.PubSub)
                {
                    Assert.True(timeout < processingTimeout,
                        $"inbound timeout {timeout} is not below processingTimeout {processingTimeout}");
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

        var bindings = Assert.Single(DaprResiliency.LoadFolder(ComponentFolders.Bindings));
        foreach (var (component, inbound) in bindings.InboundByComponent)
        {
            Assert.True(bindings.Retries[inbound.Retry!].RetriesStatus(503),
                $"{component}: the app's 503 (try again) is not retried");
        }
    }
}
