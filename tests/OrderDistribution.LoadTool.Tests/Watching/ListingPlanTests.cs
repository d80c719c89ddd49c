using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Watching;

public sealed class ListingPlanTests
{
    [Fact]
    public void A_prefix_listed_whole_costs_a_call_per_page_so_smaller_pages_make_listing_its_digits_cheaper()
    {
        // 900 orders under each of the digits 1 to 6: those under 1 to 5 awaited, those under 6 all in. Listed whole,
        // the 5,400 names take 2 pages of 5,000 but 6 of 1,000; each awaited digit listed alone takes one page.
        var names = Enumerable.Range(1, 6).SelectMany(d => Enumerable.Range(0, 900).Select(i => $"{d}{i:D3}"))
            .ToArray();
        bool IsIn(int index) => names[index][0] == '6';
        const long callCost = 3_000;

        Assert.Equal([""], ListingPlan.Of(names, IsIn, "", callCost, pageSize: 5_000));
        Assert.Equal(["1", "2", "3", "4", "5"], ListingPlan.Of(names, IsIn, "", callCost, pageSize: 1_000));
    }
}
