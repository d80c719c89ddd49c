using System.Globalization;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Messaging:RequestDeadline, the longest time the apps take to answer one delivery, as both apps' settings declare it.
/// </summary>
internal static class RequestDeadline
{
    public static TimeSpan Longest() =>
        new[] { Contract.DistributorSettings, Contract.ReceiverSettings }
            .Select(file => AppSettings.Load(file)["Messaging:RequestDeadline"]
                            ?? throw new InvalidOperationException(
                                $"{file} does not declare Messaging:RequestDeadline."))
            .Select(value => TimeSpan.Parse(value, CultureInfo.InvariantCulture))
            .Max();
}
