using System.CommandLine;
using System.CommandLine.Parsing;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// The rules the parser runs beyond an option's type, which System.CommandLine reads: ranges, URL schemes, names. A
/// value of the wrong type or out of range is refused before any command acts, in one line that names the option as
/// typed and what it takes (<see cref="Refusal"/>), never a .NET type.
/// </summary>
internal static class OptionRules
{
    /// <summary>What each ruled option takes, in words; an option without a rule takes what its type says.</summary>
    private static readonly ConditionalWeakTable<Option, string> Phrases = new();

    /// <summary>
    /// The value, once System.CommandLine has read it as <typeparamref name="T"/>, must pass <paramref name="rule"/>;
    /// <paramref name="what"/> says what the option takes, in the refusal of a value of either kind.
    /// </summary>
    public static Option<T> Must<T>(this Option<T> option, string what, Func<T, bool> rule)
    {
        Phrases.AddOrUpdate(option, what);
        option.Validators.Add(result =>
        {
            if (result.Tokens is [{ Value: var text }] && TryValue(result, out T value) && !rule(value))
            {
                result.AddError(Refusal(result, text));
            }
        });
        return option;
    }

    public static Option<int> Between(this Option<int> option, int min, int max, string unit = "") =>
        option.Must(string.Create(CultureInfo.InvariantCulture, $"a whole number from {min} to {max}{unit}"),
            n => n >= min && n <= max);

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
        option.Must("a share at least 0 and below 1 (e.g. 0.05)", share => share is >= 0 and < 1);

    /// <summary>
    /// An absolute URL of one of <paramref name="schemes"/> (System.CommandLine 2.0 reads no <see cref="Uri"/>: its
    /// GetValue throws where the parse reported nothing).
    /// </summary>
    public static Option<Uri?> Absolute(this Option<Uri?> option, string what, params string[] schemes) =>
        option.Takes(what, text =>
            Uri.TryCreate(text, UriKind.Absolute, out var uri) && schemes.Contains(uri.Scheme) ? uri : null);

    /// <summary>Any value but an empty one.</summary>
    public static Option<string> Text(this Option<string> option, string what) =>
        option.Must(what, text => text.Length > 0);

    /// <summary>One of the enum's names, in lower case (never its numbers); the enum's type is never shown.</summary>
    public static Option<TEnum?> OneOf<TEnum>(this Option<TEnum?> option)
        where TEnum : struct, Enum =>
        Named<TEnum, TEnum?>(option);

    /// <inheritdoc cref="OneOf{TEnum}(Option{TEnum?})"/>
    public static Option<TEnum> OneOf<TEnum>(this Option<TEnum> option)
        where TEnum : struct, Enum =>
        Named<TEnum, TEnum>(option);

    /// <summary>
    /// For a value System.CommandLine does not read: <paramref name="read"/> gives it, or null for text that is none.
    /// </summary>
    public static Option<T> Takes<T>(this Option<T> option, string what, Func<string, object?> read)
    {
        Phrases.AddOrUpdate(option, what);
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

            result.AddError(Refusal(result.Parent as OptionResult ?? throw new InvalidOperationException(), text));
            return default;
        };
        return option;
    }

    /// <summary>Whole seconds since 1970-01-01 UTC, as <c>date +%s</c> prints them.</summary>
    public static Option<DateTimeOffset?> Epoch(this Option<DateTimeOffset?> option) =>
        option.Takes("whole seconds since 1970-01-01 UTC (date +%s)",
            text => long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var seconds)
                    && seconds >= DateTimeOffset.MinValue.ToUnixTimeSeconds()
                    && seconds <= DateTimeOffset.MaxValue.ToUnixTimeSeconds()
                ? DateTimeOffset.FromUnixTimeSeconds(seconds)
                : null);

    /// <summary>
    /// The command writes to the files these options name (and beside them): each is checked when the command line is
    /// parsed, so that a path it cannot write is refused before anything happens, not after a burst.
    /// </summary>
    public static Command Writes(this Command command, params Option[] files)
    {
        command.Validators.Add(result =>
        {
            foreach (var option in files)
            {
                if (result.GetResult(option) is { } given && TryValue(given, out object? value)
                    && value?.ToString() is { Length: > 0 } path && WritablePath.WhyNot(path) is { } why)
                {
                    result.AddError($"{option.Name} {path}: {why}.");
                    return;
                }
            }
        });
        return command;
    }

    /// <summary>
    /// The one line for a value the option does not take: "--count takes a whole number from 1 to 1000000, not 'abc'."
    /// </summary>
    public static string Refusal(OptionResult result, string text) =>
        $"{result.IdentifierToken?.Value ?? result.Option.Name} takes {WhatItTakes(result.Option)}, not '{text}'.";

    /// <summary>
    /// Whether <paramref name="error"/> is System.CommandLine's own, that it could not read the option's value as its
    /// type: a message that names a .NET type and not the option as typed, unlike every rule's.
    /// </summary>
    public static bool Unreadable(ParseError error, OptionResult result) =>
        !error.Message.StartsWith(result.IdentifierToken?.Value ?? result.Option.Name, StringComparison.Ordinal)
        && !TryValue(result, out object? _);

    /// <summary>What the option takes, in words: its rule's, else its type's.</summary>
    public static string WhatItTakes(Option option) =>
        Phrases.TryGetValue(option, out var what)
            ? what
            : (Nullable.GetUnderlyingType(option.ValueType) ?? option.ValueType) switch
            {
                var t when t == typeof(int) => "a whole number",
                var t when t == typeof(double) => "a number",
                var t when t == typeof(DateTimeOffset) => "a time such as 2026-01-01T12:00:00Z",
                var t when t == typeof(FileInfo) => "a file's path",
                var t when t == typeof(DirectoryInfo) => "a folder's path",
                _ => "a value of another form",
            };

    /// <summary>The option's value as its type or rule read it, or false when it could not.</summary>
    public static bool TryValue<T>(OptionResult result, out T value)
    {
        try
        {
            value = result.GetValueOrDefault<T>();
            return true;
        }
        catch (InvalidOperationException)
        {
            value = default!;
            return false;
        }
    }

    private static Option<T> Named<TEnum, T>(Option<T> option)
        where TEnum : struct, Enum
    {
        var names = Enum.GetNames<TEnum>().Select(n => n.ToLowerInvariant()).ToList();
        option.HelpName = string.Join('|', names);
        Phrases.AddOrUpdate(option, string.Join(" or ", names));
        // System.CommandLine also reads an enum's numbers, which no one types for a name.
        option.Validators.Add(result =>
        {
            if (result.Tokens is [{ Value: var text }] && !names.Contains(text, StringComparer.OrdinalIgnoreCase)
                && TryValue(result, out T _))
            {
                result.AddError(Refusal(result, text));
            }
        });
        return option;
    }
}
