using System.Net;

namespace OrderDistribution.TestSupport;

/// <summary>Waits, boundedly, for something that happens in the background.</summary>
public static class Eventually
{
    public static async Task StatusAsync(HttpClient client, string path, HttpStatusCode expected,
        TimeSpan? within = null)
    {
        var deadline = DateTime.UtcNow + (within ?? TimeSpan.FromSeconds(15));
        HttpStatusCode last;
        do
        {
            using var response = await client.GetAsync(path);
            last = response.StatusCode;
            if (last == expected)
            {
                return;
            }

            await Task.Delay(50);
        }
        while (DateTime.UtcNow < deadline);

        throw new Xunit.Sdk.XunitException(
            $"{path} answered {(int)last}, not {(int)expected}, for {within ?? TimeSpan.FromSeconds(15)}.");
    }

    public static async Task TrueAsync(Func<bool> condition, TimeSpan? within = null)
    {
        var deadline = DateTime.UtcNow + (within ?? TimeSpan.FromSeconds(15));
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new Xunit.Sdk.XunitException($"Not true within {within ?? TimeSpan.FromSeconds(15)}.");
            }

            await Task.Delay(50);
        }
    }
}
