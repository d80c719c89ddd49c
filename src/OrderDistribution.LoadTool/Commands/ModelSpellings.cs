using System.CommandLine.Parsing;
using OrderDistribution.Messaging;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>--model</c> in its one spelling (<see cref="MessagingModels"/>); the spellings the tool took before are refused
/// with the one to use instead, in one line, from the table of renamed settings (<see cref="RenamedSettings"/>).
/// </summary>
internal static class ModelSpellings
{
    public static MessagingModel? Parse(ArgumentResult result)
    {
        var text = result.Tokens is [{ Value: var value }] ? value : null;
        if (MessagingModels.TryParse(text, out var model))
        {
            return model.Value;
        }

        result.AddError(RenamedSettings.Find(RenamedSettings.Option, $"--model {text}")?.Refusal
            ?? $"--model must be {MessagingModels.ValidSpellings}, not '{text}'.");
        return null;
    }

    /// <summary>
    /// The one line that refuses an option or option value order-load took before (<c>--pubsub-mode</c>, <c>--model
    /// pubsub</c>), naming the new one; null when <paramref name="args"/> holds none.
    /// </summary>
    public static string? Refusal(IReadOnlyList<string> args)
    {
        for (var i = 0; i < args.Count; i++)
        {
            var (name, value) = args[i].Split('=', 2) is [var n, var v]
                ? (n, v)
                : (args[i], i + 1 < args.Count ? args[i + 1] : null);
            var renamed = RenamedSettings.Find(RenamedSettings.Option, $"{name} {value}")
                ?? RenamedSettings.Find(RenamedSettings.Option, name);
            if (renamed is not null)
            {
                return renamed.Refusal;
            }
        }

        return null;
    }
}
