using System.ComponentModel.DataAnnotations;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The apps send a set share of their requests, each sent one standing for those left out, and every other item.
/// </summary>
public sealed class RequestSamplingTests
{
    [Fact]
    public void At_a_hundred_percent_every_request_is_sent_as_it_is()
    {
        using var channel = new Sent();
        var client = Client(channel, 100);

        foreach (var request in Requests(100))
        {
            client.TrackRequest(request);
        }

        Assert.Equal(100, channel.Items.Count);
        Assert.All(channel.Items, r => Assert.Null(((ISupportSampling)r).SamplingPercentage));
    }

    [Fact]
    public void At_ten_percent_about_a_tenth_of_the_requests_is_sent_each_standing_for_ten_and_all_else_is_sent()
    {
        using var channel = new Sent();
        var client = Client(channel, 10);

        foreach (var request in Requests(10_000))
        {
            client.TrackRequest(request);
        }

        client.TrackEvent("OrdersStored");
        client.TrackTrace("Dropped entry 7 from q-order-express: invalid");
        client.TrackDependency(new DependencyTelemetry { Name = "POST /PublishEvent", Success = false });
        client.TrackException(new IOException("storage refused it"));

        var requests = channel.Items.OfType<RequestTelemetry>().ToList();
        Assert.InRange(requests.Count, 800, 1_200);
        Assert.All(requests, r => Assert.Equal(10, ((ISupportSampling)r).SamplingPercentage));
        Assert.Equal(4, channel.Items.Count(i => i is not RequestTelemetry));
    }

    [Theory]
    [InlineData(100, true)]
    [InlineData(12.5, true)]
    [InlineData(1, true)]
    [InlineData(30, false)]
    [InlineData(0, false)]
    [InlineData(150, false)]
    public void Only_a_hundred_divided_by_a_whole_number_is_a_sampling_percentage(double percentage, bool valid)
    {
        var options = new TelemetryOptions { RequestSamplingPercentage = percentage };

        var refusals = options.Validate(new ValidationContext(options)).ToList();

        Assert.Equal(valid, refusals.Count == 0);
        Assert.All(refusals, r => Assert.StartsWith("Telemetry:RequestSamplingPercentage must be", r.ErrorMessage,
            StringComparison.Ordinal));
    }

    private static TelemetryClient Client(Sent channel, double percentage)
    {
        var configuration = new TelemetryConfiguration
        {
            ConnectionString = "InstrumentationKey=00000000-0000-0000-0000-000000000001",
            TelemetryChannel = channel,
        };
        // The SDK's own setup builds the chain before the app's configuration runs, as AddServiceDefaults orders it.
        configuration.DefaultTelemetrySink.TelemetryProcessorChainBuilder.Build();
        RequestSampling.Use(configuration, percentage);
        return new TelemetryClient(configuration);
    }

    // Each its own operation, as each delivery is: sampling chooses by operation.
    private static IEnumerable<RequestTelemetry> Requests(int count) => Enumerable.Range(0, count).Select(_ =>
    {
        var request = new RequestTelemetry { Name = "POST /q-order-express", Success = true };
        request.Context.Operation.Id = $"{Guid.NewGuid():N}";
        return request;
    });

    private sealed class Sent : ITelemetryChannel
    {
        public List<ITelemetry> Items { get; } = [];

        public bool? DeveloperMode { get; set; }

        public string EndpointAddress { get; set; } = "";

        public void Send(ITelemetry item) => Items.Add(item);

        public void Flush()
        {
        }

        public void Dispose()
        {
        }
    }
}
