using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace OrderDistribution.Messaging;

/// <summary>
/// Configuration keys that were renamed: a file still setting the old key stops the app at start with the new key
/// named, instead of the setting being silently ignored.
/// </summary>
public static class RenamedKeys
{
    public static OptionsBuilder<TOptions> RefuseRenamed<TOptions>(this OptionsBuilder<TOptions> builder, string oldKey, string newKey, string? values = null)
        where TOptions : class =>
        builder.Validate<IConfiguration>(
            (_, configuration) => configuration[oldKey] is null,
            $"{oldKey} is no longer read: set {newKey}{(values is null ? "" : $" ({values})")} instead.");
}
