using OrderDistribution.Contracts;
using Microsoft.Extensions.Options;

namespace OrderDistribution.Receiver;

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
