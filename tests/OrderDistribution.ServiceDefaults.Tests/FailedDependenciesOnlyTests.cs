using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The apps send Application Insights a dependency call only when it failed, and every other item as it is.
/// </summary>
public sealed class FailedDependenciesOnlyTests
{
    [Fact]
    public void A_successful_dependency_call_is_not_sent_and_a_failed_or_unknown_one_is()
    {
        var sent = new Sent();
        var processor = new FailedDependenciesOnly(sent);
        const string publish = "POST /dapr.proto.runtime.v1.Dapr/PublishEvent";
        var succeeded = new DependencyTelemetry { Name = publish, Success = true };
        var failed = new DependencyTelemetry { Name = publish, Success = false };
        var unknown = new DependencyTelemetry { Name = publish, Success = null };

        processor.Process(succeeded);
        processor.Process(failed);
        processor.Process(unknown);

        Assert.Equal([failed, unknown], sent.Items);
    }

    [Fact]
    public void Requests_events_and_traces_are_sent_whatever_their_outcome()
    {
        var sent = new Sent();
        var processor = new FailedDependenciesOnly(sent);
        ITelemetry[] items =
        [
            new RequestTelemetry { Success = true }, new RequestTelemetry { Success = false },
            new EventTelemetry("OrdersStored"), new TraceTelemetry("Most calls to storage failed"),
        ];

        foreach (var item in items)
        {
            processor.Process(item);
        }

        Assert.Equal(items, sent.Items);
    }

    private sealed class Sent : ITelemetryProcessor
    {
        public List<ITelemetry> Items { get; } = [];

        public void Process(ITelemetry item) => Items.Add(item);
    }
}
