using System.CommandLine;
using System.CommandLine.Parsing;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// Checks on option values, run by the parser: a value out of range is refused before any command acts, with the
/// option, the range and the value in the message.
/// </summary>
internal static class OptionRules
{
    public static Option<int> Between(this Option<int> option, int min, int max, string unit = "")
    {
        option.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() is var value && (value < min || value > max))
            {
                result.AddError(string.Create(CultureInfo.InvariantCulture, $"{option.Name} must be between {min} and {max}{unit}, not {value}."));
            }
        });
        return option;
    }

    /// <summary>The range the apps' own options class declares for <paramref name="property"/> ([Range]): one home for it.</summary>
    public static Option<int> InRangeOf<TOptions>(this Option<int> option, string property)
    {
        var range = typeof(TOptions).GetProperty(property)?.GetCustomAttribute<RangeAttribute>()
                    ?? throw new InvalidOperationException($"{typeof(TOptions).Name}.{property} declares no [Range].");
        return option.Between(Convert.ToInt32(range.Minimum, CultureInfo.InvariantCulture), Convert.ToInt32(range.Maximum, CultureInfo.InvariantCulture));
    }

    public static Option<double> AtLeastZeroBelowOne(this Option<double> option)
    {
        option.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<double>() is var value && (double.IsNaN(value) || value is < 0 or >= 1))
            {
                result.AddError(string.Create(CultureInfo.InvariantCulture, $"{option.Name} must be at least 0 and below 1, not {value}."));
            }
        });
        return option;
    }

    /// <summary>The value, when given, must be an absolute http(s) URL.</summary>
    public static TOption HttpUrl<TOption>(this TOption option)
        where TOption : Option
    {
        option.Validators.Add(result =>
        {
            if (result.Tokens is [{ Value: var value }, ..] && !IsHttpUrl(value))
            {
                result.AddError($"{option.Name} must be an absolute http(s) URL, not '{value}'.");
            }
        });
        return option;
    }

    public static bool IsHttpUrl(string? value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https";
}
