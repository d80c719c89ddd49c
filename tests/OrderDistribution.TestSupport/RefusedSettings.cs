using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.TestSupport;

/// <summary>
/// A wrong value for every setting an app validates, found from the app itself: the sections it binds with
/// <see cref="Settings.AddSettings{TOptions}"/> and, in each options type, every property's type and rules, and the
/// renamed keys of those sections. A setting added to an options type is covered without a word here.
/// </summary>
public static class RefusedSettings
{
    /// <summary>Each wrong setting of <paramref name="member"/>, and the key its refusal must name.</summary>
    public static IEnumerable<(string Key, string Value, string Named)> Of(string member)
    {
        foreach (var (options, section) in SectionsOf(member))
        {
            foreach (var property in options.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .Where(p => p.SetMethod?.IsPublic == true))
            {
                var key = $"{section}:{property.Name}";
                foreach (var value in WrongValues(property))
                {
                    yield return (key, value, key);
                }
            }

            foreach (var renamed in RenamedSettings.All.Where(r => r.Kind == RenamedSettings.Setting
                && r.Old.StartsWith($"{section}:", StringComparison.Ordinal)))
            {
                yield return (renamed.Old, "x", renamed.Old);
            }
        }
    }

    /// <summary>
    /// The options types and sections <paramref name="member"/> validates, from its own service registrations.
    /// </summary>
    public static IReadOnlyList<(Type Options, string Section)> SectionsOf(string member)
    {
        List<ServiceDescriptor> services = [];
        AppHost.StartFailureOf(member, new AppHostOptions
        {
            Sidecar = new Uri("http://127.0.0.1:1"),
            ConfigureServices = (_, collection) => services.AddRange(collection),
        });
        return [.. services
            .Select(service => service.ImplementationInstance)
            .Where(instance => instance?.GetType() is { IsGenericType: true } type
                && type.GetGenericTypeDefinition() == typeof(Settings.SettingsValidation<>))
            .Select(instance =>
                (instance!.GetType().GetGenericArguments()[0],
                (string)instance.GetType().GetProperty("Section")!.GetValue(instance)!))
            .Distinct()];
    }

    private static IEnumerable<string> WrongValues(PropertyInfo property)
    {
        var type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
        if (type != typeof(string) && type != typeof(Uri))
        {
            yield return "not-a-value";
        }

        foreach (var attribute in property.GetCustomAttributes<ValidationAttribute>())
        {
            switch (attribute)
            {
                case RequiredAttribute:
                    yield return "";
                    break;
                case RangeAttribute { Minimum: int min, Maximum: int max }:
                    yield return (min - 1L).ToString(CultureInfo.InvariantCulture);
                    yield return (max + 1L).ToString(CultureInfo.InvariantCulture);
                    break;
                case RangeAttribute
                {
                    OperandType: var operand, Minimum: string min,
                    Maximum: string max
                } when operand == typeof(TimeSpan):
                    var (least, most) = (TimeSpan.Parse(min, CultureInfo.InvariantCulture),
                        TimeSpan.Parse(max, CultureInfo.InvariantCulture));
                    yield return (least - TimeSpan.FromTicks(1)).ToString("c", CultureInfo.InvariantCulture);
                    if (most < TimeSpan.MaxValue)
                    {
                        yield return (most + TimeSpan.FromTicks(1)).ToString("c", CultureInfo.InvariantCulture);
                    }

                    break;
                default:
                    throw new NotSupportedException(
                        $"{property.DeclaringType?.Name}.{property.Name}: no wrong value for " +
                        $"{attribute.GetType().Name} yet");
            }
        }
    }
}
