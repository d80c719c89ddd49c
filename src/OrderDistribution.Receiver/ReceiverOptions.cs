using OrderDistribution.Contracts;
using Microsoft.Extensions.Options;

namespace OrderDistribution.Receiver;

/// <summary>
/// Which receiver this is and what it reads and writes. Section <c>Receiver</c>; the instance also comes
/// from the <c>INSTANCE</c> variable, and the queue, binding and container names follow from it unless set.
/// </summary>
public sealed class ReceiverOptions
{
    public const string Section = "Receiver";

    public string Instance { get; set; } = "";

    public string? Topic { get; set; }

    public string? InputBinding { get; set; }

    public string? Container { get; set; }

    /// <summary>
    /// How many blob writes the process runs at once, over all deliveries: single mode runs hundreds of
    /// deliveries at once, and a bound per delivery would multiply by them. A delivery waits for a slot.
    /// </summary>
    public int MaxConcurrentWrites { get; set; } = 64;

    public string TopicName => Topic ?? OrderTopology.QueueOf(Instance);

    public string InputBindingName => InputBinding ?? OrderTopology.InputBindingOf(Instance);

    public string ContainerName => Container ?? OrderTopology.OutboxOf(Instance);
}

public sealed class ReceiverOptionsValidator : IValidateOptions<ReceiverOptions>
{
    public ValidateOptionsResult Validate(string? name, ReceiverOptions options)
    {
        if (!OrderTopology.Instances.Contains(options.Instance))
        {
            return ValidateOptionsResult.Fail(
                $"INSTANCE (or Receiver:Instance) must be 'express' or 'standard', not '{options.Instance}'.");
        }

        if (options.MaxConcurrentWrites is < 1 or > 1_000)
        {
            return ValidateOptionsResult.Fail(
                $"Receiver:MaxConcurrentWrites must be between 1 and 1000, not {options.MaxConcurrentWrites}.");
        }

        // Blob container names: 3 to 63 lower-case letters, digits and single hyphens.
        if (!System.Text.RegularExpressions.Regex.IsMatch(options.ContainerName, "^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$"))
        {
            return ValidateOptionsResult.Fail($"'{options.ContainerName}' is not a valid blob container name.");
        }

        return ValidateOptionsResult.Success;
    }
}
