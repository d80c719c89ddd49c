using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.Tests.Costs;

/// <summary>
/// The orders waiting per queue and second: counted from the burst's instant as the orders stored are, kept in a file
/// the report reads back, and said in one line of where the burst waited.
/// </summary>
public sealed class QueueSeriesTests
{
    private static readonly string[] Queues = ["q-order-ingress", "q-order-express", "q-order-standard"];

    [Fact]
    public void The_line_says_each_queues_most_orders_waiting_and_from_which_second_it_held_none()
    {
        var series = new QueueSeries(Queues,
        [
            Sample(0, ingress: 10_000, express: 0, standard: 0),
            Sample(1, ingress: 6_000, express: 2_100, standard: 1_900),
            Sample(2, ingress: 0, express: 2_400, standard: 800),
            // The broker did not answer for the standard queue this second.
            new QueueSample(3, new Dictionary<string, long> { ["q-order-ingress"] = 0, ["q-order-express"] = 700 }),
            Sample(5, ingress: 0, express: 0, standard: 0),
        ]);

        Assert.Equal(
            "q-order-ingress at most 10000 (second 0), none from second 2; " +
            "q-order-express at most 2400 (second 2), none from second 5; " +
            "q-order-standard at most 1900 (second 1), none from second 5",
            series.Summary());
    }

    [Fact]
    public void A_queue_still_holding_orders_at_the_last_reading_says_so_and_one_never_read_is_named()
    {
        var series = new QueueSeries(Queues,
        [
            new QueueSample(0, new Dictionary<string, long> { ["q-order-ingress"] = 0, ["q-order-express"] = 40 }),
            new QueueSample(1, new Dictionary<string, long> { ["q-order-ingress"] = 0, ["q-order-express"] = 12 }),
        ]);

        Assert.Equal(
            "q-order-ingress held none; q-order-express at most 40 (second 0), still 12 at second 1; " +
            "q-order-standard not read",
            series.Summary());
    }

    private static QueueSample Sample(int second, long ingress, long express, long standard) =>
        new(second, new Dictionary<string, long>
        {
            ["q-order-ingress"] = ingress,
            ["q-order-express"] = express,
            ["q-order-standard"] = standard,
        });
}
