using System.ComponentModel.DataAnnotations;
using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The apps send a set share of their requests, each sent one standing for those left out, and every other item.
/// </summary>
public sealed class RequestSamplingTests
{
    [Fact]
    public void By_default_every_request_is_sent_as_it_is()
    {
        var sent = new Sent();
        var sampling = new RequestSampling(sent, Options.Create(new TelemetryOptions()));
        var requests = Requests(100).ToList();

        requests.ForEach(sampling.Process);

        Assert.Equal(requests, sent.Items);
        Assert.All(requests, r => Assert.Null(((ISupportSampling)r).SamplingPercentage));
    }

    [Fact]
    public void At_ten_percent_about_a_tenth_of_the_requests_is_sent_each_standing_for_ten_and_all_else_is_sent()
    {
        var sent = new Sent();
        var sampling = new RequestSampling(sent,
            Options.Create(new TelemetryOptions { RequestSamplingPercentage = 10 }));
        ITelemetry[] others =
        [
            new EventTelemetry("OrdersStored"), new TraceTelemetry("Dropped entry 7 from q-order-express: invalid"),
            new DependencyTelemetry { Name = "POST /PublishEvent", Success = false },
            new ExceptionTelemetry(new IOException("storage refused it")),
        ];

        foreach (var item in Requests(10_000).Concat(others))
        {
            sampling.Process(item);
        }

        var requests = sent.Items.OfType<RequestTelemetry>().ToList();
        Assert.InRange(requests.Count, 800, 1_200);
        Assert.All(requests, r => Assert.Equal(10, ((ISupportSampling)r).SamplingPercentage));
        Assert.Equal(others, sent.Items.Where(i => i is not RequestTelemetry));
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

    // Each its own operation, as each delivery is: sampling chooses by operation.
    private static IEnumerable<RequestTelemetry> Requests(int count) => Enumerable.Range(0, count).Select(i =>
    {
        var request = new RequestTelemetry { Name = "POST /q-order-express", Success = true };
        request.Context.Operation.Id = $"{Guid.NewGuid():N}";
        return request;
    });

    private sealed class Sent : ITelemetryProcessor
    {
        public List<ITelemetry> Items { get; } = [];

        public void Process(ITelemetry item) => Items.Add(item);
    }
}
