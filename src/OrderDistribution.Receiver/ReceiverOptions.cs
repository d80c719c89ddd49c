using System.ComponentModel.DataAnnotations;
using System.Text.RegularExpressions;
using OrderDistribution.Contracts;

namespace OrderDistribution.Receiver;

/// <summary>
/// Which receiver this is and what it reads and writes. Section <c>Receiver</c>; the instance also comes
/// from the <c>INSTANCE</c> variable, and the queue, binding and container names follow from it unless set.
/// </summary>
public sealed partial class ReceiverOptions : IValidatableObject
{
    public const string Section = "Receiver";

    public string Instance { get; set; } = "";

    public string? Queue { get; set; }

    public string? InputBinding { get; set; }

    public string? Container { get; set; }

    /// <summary>
    /// How many blob writes the process runs at once, over all requests: pubsub-single runs hundreds of
    /// requests at once, and a bound per request would multiply by them. A request waits for a slot.
    /// </summary>
    [Range(1, 1_000, ErrorMessage = "Receiver:MaxConcurrentWrites must be between {1} and {2}.")]
    public int MaxConcurrentWrites { get; set; } = 64;

    public string QueueName => Queue ?? OrderTopology.QueueOf(Instance);

    public string InputBindingName => InputBinding ?? OrderTopology.InputBindingOf(Instance);

    public string ContainerName => Container ?? OrderTopology.OutboxOf(Instance);

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!OrderTopology.Instances.Contains(Instance))
        {
            yield return new ValidationResult(
                $"INSTANCE (or Receiver:Instance) must be 'express' or 'standard', not '{Instance}'.",
                [nameof(Instance)]);
        }
        else if (!ContainerNamePattern().IsMatch(ContainerName))
        {
            yield return new ValidationResult(
                $"Receiver:Container: '{ContainerName}' is not a blob container name "
                + "(3 to 63 lower-case letters, digits and single hyphens).",
                [nameof(Container)]);
        }
    }

    /// <summary>Blob container names: 3 to 63 lower-case letters, digits and single hyphens.</summary>
    [GeneratedRegex("^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$")]
    private static partial Regex ContainerNamePattern();
}
