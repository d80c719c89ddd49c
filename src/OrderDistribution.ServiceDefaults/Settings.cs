using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// The one way the apps read typed options: bound from a configuration section and validated at start, every failure
/// naming the key a user sets (<c>Messaging:MaxMessagesCount</c>), whether the value does not convert or breaks a rule.
/// </summary>
public static class Settings
{
    /// <summary>
    /// Binds <typeparamref name="TOptions"/> from <paramref name="section"/>, validates its data annotations and
    /// <see cref="IValidatableObject"/> rules at start (<see cref="OptionsBuilderExtensions.ValidateOnStart"/>) and
    /// refuses the section's renamed keys (<see cref="RenamedSettings"/>).
    /// </summary>
    public static OptionsBuilder<TOptions> AddSettings<TOptions>(this IServiceCollection services, string section)
        where TOptions : class
    {
        // Apps and libraries may each ask for the same options (messaging, for one): bound and checked once.
        if (services.Any(service => service.ImplementationInstance is SettingsValidation<TOptions>))
        {
            return services.AddOptions<TOptions>();
        }

        services.AddSingleton<IValidateOptions<TOptions>>(new SettingsValidation<TOptions>(section));
        return services.AddOptions<TOptions>()
            .Configure<IConfiguration>((options, configuration) => Bind(configuration.GetSection(section), options))
            .RefuseRenamed(section)
            .ValidateOnStart();
    }

    /// <exception cref="OptionsValidationException">A value does not convert; the failure names its key.</exception>
    private static void Bind<TOptions>(IConfigurationSection section, TOptions options)
        where TOptions : class
    {
        try
        {
            section.Bind(options);
        }
        catch (InvalidOperationException e)
        {
            var failures = ConversionFailures(section, typeof(TOptions)).DefaultIfEmpty(e.Message).ToList();
            throw new OptionsValidationException(Options.DefaultName, typeof(TOptions), failures);
        }
    }

    /// <summary>
    /// Each key of the section whose value does not convert to its property's type, as the binder converts it.
    /// </summary>
    private static IEnumerable<string> ConversionFailures(IConfigurationSection section, Type optionsType)
    {
        foreach (var property in optionsType.GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            var type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
            var value = section[property.Name];
            if (type == typeof(string) || value is null || (value.Length == 0 && type != property.PropertyType))
            {
                continue;
            }

            string? problem = null;
            try
            {
                TypeDescriptor.GetConverter(type).ConvertFromInvariantString(value);
            }
            catch (Exception e)
                when (e is FormatException or ArgumentException or NotSupportedException or OverflowException)
            {
                problem = Expected(type, value, e);
            }

            if (problem is not null)
            {
                yield return $"{section.Path}:{property.Name}: {problem}";
            }
        }
    }

    /// <summary>
    /// What the value should be, in the user's words; a type's own converter says it best where it has one.
    /// </summary>
    private static string Expected(Type type, string value, Exception e) => type switch
    {
        _ when type.IsEnum && TypeDescriptor.GetConverter(type) is EnumConverter =>
            $"'{value}' is not one of {string.Join(", ", Enum.GetNames(type))}",
        _ when type == typeof(int) || type == typeof(long) => $"'{value}' is not a whole number",
        _ when type == typeof(TimeSpan) => $"'{value}' is not a duration (hh:mm:ss, e.g. 00:00:05)",
        _ when type == typeof(bool) => $"'{value}' is not true or false",
        _ when type == typeof(Uri) => $"'{value}' is not a URL",
        _ => (e.InnerException ?? e).Message,
    };

    /// <summary>
    /// Data annotations and <see cref="IValidatableObject"/>, as <c>ValidateDataAnnotations</c> runs them, each failure
    /// naming its key; an app's registrations of it say which sections it validates.
    /// </summary>
    public sealed class SettingsValidation<TOptions>(string section) : IValidateOptions<TOptions>
        where TOptions : class
    {
        public string Section => section;

        public ValidateOptionsResult Validate(string? name, TOptions options)
        {
            var failures = new List<string>();
            foreach (var property in typeof(TOptions).GetProperties(BindingFlags.Public | BindingFlags.Instance))
            {
                var context = new ValidationContext(options)
                {
                    MemberName = property.Name,
                    DisplayName = $"{section}:{property.Name}",
                };
                var value = property.GetValue(options);
                foreach (var attribute in property.GetCustomAttributes<ValidationAttribute>())
                {
                    if (attribute.GetValidationResult(value, context) is { ErrorMessage: { } message })
                    {
                        failures.Add(value is null or string ? message : $"{message.TrimEnd('.')}, not {Text(value)}.");
                    }
                }
            }

            if (failures.Count == 0 && options is IValidatableObject validatable)
            {
                failures.AddRange(validatable.Validate(new ValidationContext(options))
                    .Select(result => result.ErrorMessage ?? $"{section} is not valid"));
            }

            return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
        }

        private static string Text(object value) => Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
    }
}
