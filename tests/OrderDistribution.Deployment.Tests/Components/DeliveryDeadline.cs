using System.Globalization;

namespace OrderDistribution.Deployment.Tests;

/// <summary>Messaging:DeliveryDeadline, the longest time the apps take to answer one delivery, as both apps' settings declare it.</summary>
internal static class DeliveryDeadline
{
    public static TimeSpan Longest() =>
        new[] { Contract.DistributorSettings, Contract.ReceiverSettings }
            .Select(file => AppSettings.Load(file)["Messaging:DeliveryDeadline"]
                            ?? throw new InvalidOperationException($"{file} does not declare Messaging:DeliveryDeadline."))
            .Select(value => TimeSpan.Parse(value, CultureInfo.InvariantCulture))
            .Max();
}
