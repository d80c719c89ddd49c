using System.CommandLine;
using System.CommandLine.Parsing;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// How each option reads its value, run by the parser: a value of the wrong type or out of range is refused before any
/// command acts, in one line that names the option and what it takes, never a .NET type.
/// </summary>
internal static class OptionRules
{
    /// <summary>
    /// Reads the one token as <paramref name="what"/> says; anything else is refused with that phrase.
    /// </summary>
    /// <param name="read">The value, or null when the text is no such value.</param>
    public static Option<T> Takes<T>(this Option<T> option, string what, Func<string, object?> read)
    {
        option.CustomParser = result =>
        {
            if (result.Tokens.Count == 0 && option.DefaultValueFactory is { } fallback)
            {
                return fallback(result);
            }

            var text = result.Tokens is [{ Value: var value }] ? value : "";
            if (read(text) is { } parsed)
            {
                return (T)parsed;
            }

            result.AddError($"{Typed(result, option)} takes {what}, not '{text}'.");
            return default;
        };
        return option;
    }

    public static Option<int> Between(this Option<int> option, int min, int max, string unit = "") =>
        option.Takes(Whole(min, max, unit), text => WholeNumber(text) is { } n && n >= min && n <= max ? n : null);

    public static Option<int?> AnyWhole(this Option<int?> option) =>
        option.Takes(Whole(int.MinValue, int.MaxValue, ""), text => WholeNumber(text));

    /// <summary>
    /// The range the apps' own options class declares for <paramref name="property"/> ([Range]): one home for it.
    /// </summary>
    public static Option<int> InRangeOf<TOptions>(this Option<int> option, string property)
    {
        var range = typeof(TOptions).GetProperty(property)?.GetCustomAttribute<RangeAttribute>()
                    ?? throw new InvalidOperationException($"{typeof(TOptions).Name}.{property} declares no [Range].");
        return option.Between(
            Convert.ToInt32(range.Minimum, CultureInfo.InvariantCulture),
            Convert.ToInt32(range.Maximum, CultureInfo.InvariantCulture));
    }

    public static Option<double> AtLeastZeroBelowOne(this Option<double> option) =>
        option.Takes("a share at least 0 and below 1 (e.g. 0.05)",
            text => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var share)
                    && share is >= 0 and < 1
                ? share
                : null);

    /// <summary>One of the enum's names, in lower case; the enum's type is never shown.</summary>
    public static Option<TEnum> OneOf<TEnum>(this Option<TEnum> option)
        where TEnum : struct, Enum
    {
        option.HelpName = Names<TEnum>("|");
        return option.Takes(Names<TEnum>(" or "), text => EnumValue<TEnum>(text) is { } value ? value : null);
    }

    public static Option<TEnum?> OneOf<TEnum>(this Option<TEnum?> option)
        where TEnum : struct, Enum
    {
        option.HelpName = Names<TEnum>("|");
        return option.Takes(Names<TEnum>(" or "), text => EnumValue<TEnum>(text));
    }

    public static Option<DateTimeOffset?> Instant(this Option<DateTimeOffset?> option) =>
        option.Takes("a time such as 2026-01-01T12:00:00Z",
            text => DateTimeOffset.TryParse(
                text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at) ? at : null);

    /// <summary>Whole seconds since 1970-01-01 UTC, as <c>date +%s</c> prints them.</summary>
    public static Option<DateTimeOffset> Epoch(this Option<DateTimeOffset> option) =>
        option.Takes("whole seconds since 1970-01-01 UTC (date +%s)",
            text => long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var seconds)
                    && seconds >= DateTimeOffset.MinValue.ToUnixTimeSeconds()
                    && seconds <= DateTimeOffset.MaxValue.ToUnixTimeSeconds()
                ? DateTimeOffset.FromUnixTimeSeconds(seconds)
                : null);

    /// <summary>The value, when given, must be an absolute http(s) URL.</summary>
    public static Option<string> HttpUrl(this Option<string> option) =>
        option.Takes("an absolute http(s) URL", text => LoadTool.HttpUrl.IsValid(text) ? text : null);

    /// <summary>Any value but an empty one.</summary>
    public static Option<string> Text(this Option<string> option, string what) =>
        option.Takes(what, text => text.Length > 0 ? text : null);

    /// <summary>
    /// The command writes to the files these options name (and beside them): each is checked when the command line is
    /// parsed, so that a path it cannot write is refused before anything happens, not after a burst.
    /// </summary>
    public static Command Writes(this Command command, params Option<string>[] files)
    {
        command.Validators.Add(result =>
        {
            foreach (var option in files)
            {
                if (ValueOrNull(result, option) is { } path && WritablePath.WhyNot(path) is { } why)
                {
                    result.AddError($"{option.Name} {path}: {why}.");
                    return;
                }
            }
        });
        return command;
    }

    /// <summary>
    /// The command does not take <paramref name="option"/>, though other commands do: given, it is refused with
    /// <paramref name="why"/>.
    /// </summary>
    public static Command Refuses(this Command command, Option option, string why)
    {
        command.Validators.Add(result =>
        {
            if (result.GetResult(option) is { Implicit: false })
            {
                result.AddError($"{option.Name}: {why}.");
            }
        });
        return command;
    }

    /// <summary>
    /// The option's value, or null when its own rule refused it (that error is the one the user sees).
    /// </summary>
    public static T? ValueOrNull<T>(CommandResult result, Option<T> option)
        where T : class?
    {
        try
        {
            return result.GetValue(option);
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>The option as the user typed it.</summary>
    private static string Typed(ArgumentResult result, Option option) =>
        (result.Parent as OptionResult)?.IdentifierToken?.Value ?? option.Name;

    private static int? WholeNumber(string text) =>
        int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var n) ? n : null;

    private static string Whole(int min, int max, string unit) =>
        min == int.MinValue
            ? "a whole number"
            : string.Create(CultureInfo.InvariantCulture, $"a whole number from {min} to {max}{unit}");

    private static string Names<TEnum>(string separator)
        where TEnum : struct, Enum =>
        string.Join(separator, Enum.GetNames<TEnum>().Select(n => n.ToLowerInvariant()));

    private static TEnum? EnumValue<TEnum>(string text)
        where TEnum : struct, Enum =>
        !int.TryParse(text, out _) && Enum.TryParse<TEnum>(text, ignoreCase: true, out var value) ? value : null;
}
