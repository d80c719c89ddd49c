using System.Diagnostics.CodeAnalysis;

namespace OrderDistribution.Messaging;

/// <summary>
/// The one spelling of <see cref="MessagingModel"/>: <c>bindings</c>, <c>pubsub-single</c>, <c>pubsub-bulk</c>.
/// </summary>
public static class MessagingModels
{
    public const string Bindings = "bindings";
    public const string PubSubSingle = "pubsub-single";
    public const string PubSubBulk = "pubsub-bulk";

    /// <summary>Every spelling, in the order <see cref="MessagingModel"/> declares them.</summary>
    public static IReadOnlyList<string> Spellings { get; } = [Bindings, PubSubSingle, PubSubBulk];

    /// <summary>"bindings, pubsub-single or pubsub-bulk", for messages that name the valid spellings.</summary>
    public const string ValidSpellings = $"{Bindings}, {PubSubSingle} or {PubSubBulk}";

    public static string Text(this MessagingModel model) => model switch
    {
        MessagingModel.Bindings => Bindings,
        MessagingModel.PubSubSingle => PubSubSingle,
        MessagingModel.PubSubBulk => PubSubBulk,
        _ => throw new ArgumentOutOfRangeException(nameof(model), model, null),
    };

    /// <summary>Whether the model moves orders through the pub/sub component (either way of subscribing).</summary>
    public static bool IsPubSub(this MessagingModel model) =>
        model is MessagingModel.PubSubSingle or MessagingModel.PubSubBulk;

    public static bool TryParse(string? text, [NotNullWhen(true)] out MessagingModel? model)
    {
        model = text switch
        {
            Bindings => MessagingModel.Bindings,
            PubSubSingle => MessagingModel.PubSubSingle,
            PubSubBulk => MessagingModel.PubSubBulk,
            _ => null,
        };
        return model is not null;
    }

    /// <exception cref="FormatException">The text is not one of the three spellings; the message names
    /// them.</exception>
    public static MessagingModel Parse(string? text) =>
        TryParse(text, out var model) ? model.Value : throw new FormatException(NotAModel(text));

    /// <summary>The message for a value that is not a model.</summary>
    public static string NotAModel(string? text) => $"'{text}' is not a messaging model: use {ValidSpellings}";
}
