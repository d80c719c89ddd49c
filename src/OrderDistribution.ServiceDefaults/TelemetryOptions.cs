using System.ComponentModel.DataAnnotations;

namespace OrderDistribution.ServiceDefaults;

/// <summary>What the apps send Application Insights. Section <c>Telemetry</c>.</summary>
public sealed class TelemetryOptions : IValidatableObject
{
    public const string Section = "Telemetry";

    /// <summary>
    /// The share of requests sent, in percent (100: every one). In single and bindings each order is a request in
    /// each app it passes, and requests are most of what Log Analytics bills a burst; each request sent stands for
    /// 100 / this many (its <c>itemCount</c>), which the queries weigh by. Events, logs, failed calls and exceptions
    /// are all sent whatever this says: the cycle's end and the retries and drops stay exact.
    /// </summary>
    public double RequestSamplingPercentage { get; set; } = 100;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        // Application Insights keeps 100 / N percent for a whole N, so that each item stands for N.
        var keepOneIn = 100 / RequestSamplingPercentage;
        if (RequestSamplingPercentage is not (> 0 and <= 100) || Math.Abs(keepOneIn - Math.Round(keepOneIn)) > 1e-9)
        {
            yield return new ValidationResult(
                $"Telemetry:RequestSamplingPercentage must be 100 divided by a whole number (100, 50, 25, 20, 10, 5, " +
                $"1, ...), not {RequestSamplingPercentage}.", [nameof(RequestSamplingPercentage)]);
        }
    }
}
