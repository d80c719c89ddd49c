using System.CommandLine.Parsing;
using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>--model</c> in its one spelling (<see cref="MessagingModels"/>); the spellings the tool took before are refused
/// with the one to use instead, in one line.
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

        result.AddError(OldSpelling(text) ?? $"--model must be {MessagingModels.ValidSpellings}, not '{text}'.");
        return null;
    }

    /// <summary>
    /// The one line that refuses a spelling of the model order-load took before (<c>--pubsub-mode</c>, <c>--model
    /// pubsub|bulk|single|binding</c>), naming the new one; null when <paramref name="args"/> holds none.
    /// </summary>
    public static string? Refusal(IReadOnlyList<string> args)
    {
        for (var i = 0; i < args.Count; i++)
        {
            var (name, value) = args[i].Split('=', 2) is [var n, var v] ? (n, v) : (args[i], i + 1 < args.Count ? args[i + 1] : null);
            if (name == "--pubsub-mode")
            {
                return value is "bulk" or "single"
                    ? $"--pubsub-mode is gone: use --model pubsub-{value}."
                    : "--pubsub-mode is gone: use --model pubsub-bulk or --model pubsub-single.";
            }

            if (name == "--model" && OldSpelling(value) is { } refusal)
            {
                return refusal;
            }
        }

        return null;
    }

    private static string? OldSpelling(string? value) => value switch
    {
        "pubsub" => "--model pubsub is gone: use --model pubsub-bulk or --model pubsub-single.",
        "bulk" or "single" => $"--model {value} is gone: use --model pubsub-{value}.",
        "binding" => "--model binding is gone: use --model bindings.",
        _ => null,
    };
}
