using System.CommandLine;
using System.ComponentModel.DataAnnotations;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Storage;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>The options, read into the settings the code a command drives takes.</summary>
internal static class CommandSettings
{
    private const string StorageVariable = "Storage__ConnectionString";

    /// <summary>
    /// The store the options name, held for as long as --lease says between renewals (a command without --lease holds
    /// none).
    /// </summary>
    public static ToolStore Store(this ParseResult result) => new(
        () => StorageOptionsOf(result), result.GetValue(StorageAccountUrl),
        result.GetResult(LeaseSeconds) is null
            ? StoreLease.DefaultDuration
            : TimeSpan.FromSeconds(result.GetValue(LeaseSeconds)));

    public static BurstSpec Spec(this ParseResult result) =>
        new(result.GetValue(Count), result.GetValue(InvalidRate), result.GetValue(Seed));

    public static ScheduleSettings Schedule(this ParseResult result) => new(
        result.GetValue(Target), result.GetValue(ScheduleDelay), ModelOf(result), result.GetValue(Sidecar)!,
        result.GetValue(SidecarGrpc)!, result.GetValue(MaxBulkBytes), result.PathOf(Orders), result.PathOf(State));

    /// <summary>--timeout, and looks from --poll to --max-poll (at least --poll) apart.</summary>
    public static WatchSettings Watch(this ParseResult result)
    {
        var min = result.GetValue(PollMilliseconds);
        var max = Math.Max(min, result.GetValue(MaxPollMilliseconds));
        return new WatchSettings(
            TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)),
            new WatchPacing(TimeSpan.FromMilliseconds(min), TimeSpan.FromMilliseconds(max)));
    }

    /// <summary>The path as the user gave it (or the default), so that messages name it so.</summary>
    public static string PathOf(this ParseResult result, Option<FileInfo> option) =>
        result.GetValue(option)!.ToString();

    /// <summary>The connection string of the store the user named (--storage or the variable), else null.</summary>
    /// <exception cref="ArgumentException">The options name no valid store.</exception>
    public static string? GivenConnectionString(this ParseResult result) =>
        result.GetValue(StorageConnectionString) is not null
        || Environment.GetEnvironmentVariable(StorageVariable) is { Length: > 0 }
            ? StorageOptionsOf(result).ConnectionString
            : null;

    /// <summary>Where storage is: --storage-account-url, else --storage, else the variable, else Azurite.</summary>
    /// <exception cref="ArgumentException">The options name no valid store; the message names the option.</exception>
    private static StorageOptions StorageOptionsOf(ParseResult result)
    {
        var accountUrl = result.GetValue(StorageAccountUrl);
        var options = new StorageOptions
        {
            AccountUrl = accountUrl,
            ConnectionString = accountUrl is null
                ? result.GetValue(StorageConnectionString)
                  ?? Environment.GetEnvironmentVariable(StorageVariable)
                  ?? "UseDevelopmentStorage=true"
                : null,
        };
        var invalid = new List<System.ComponentModel.DataAnnotations.ValidationResult>();
        if (Validator.TryValidateObject(options, new ValidationContext(options), invalid, validateAllProperties: true))
        {
            return options;
        }

        // The options class speaks of its configuration keys; the user gave an option or a variable.
        var given = accountUrl is not null ? StorageAccountUrl.Name
            : result.GetValue(StorageConnectionString) is not null ? StorageConnectionString.Name
            : StorageVariable;
        const string section = StorageOptions.Section;
        var why = string.Join(" ", invalid.Select(r => r.ErrorMessage))
            .Replace($"{section}:{nameof(StorageOptions.ConnectionString)}", given, StringComparison.Ordinal)
            .Replace($"{section}:{nameof(StorageOptions.AccountUrl)}", given, StringComparison.Ordinal);
        throw new ArgumentException(why);
    }
}
