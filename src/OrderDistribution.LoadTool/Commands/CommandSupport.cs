using System.CommandLine;
using System.ComponentModel.DataAnnotations;
using Azure.Identity;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Leasing;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using OrderDistribution.Storage;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>What several commands do the same way: open storage and the sidecar, show progress.</summary>
internal static class CommandSupport
{
    /// <summary>Opens the outboxes' storage and checks, with one short call, that it answers.</summary>
    /// <exception cref="LoadToolException">Storage is misconfigured or not reachable.</exception>
    public static async Task<OutboxStorage> OpenStorageAsync(ParseResult result, CancellationToken ct)
    {
        var storage = OutboxStorage.Open(StorageOptionsOf(result), OrderTopology.Outboxes);
        try
        {
            // The SDK signs in on the first call: this one.
            await storage.EnsureReachableAsync(ct);
        }
        catch (AuthenticationFailedException e)
        {
            throw LoadToolException.SignInFailed(result.GetValue(CommonOptions.StorageAccountUrl), e);
        }

        return storage;
    }

    /// <summary>Takes the store for one burst at a time (<see cref="StoreLease"/>), for as long as --lease says between renewals.</summary>
    /// <exception cref="LoadToolException">Another burst holds the store, or storage failed.</exception>
    public static Task<StoreLease> HoldStoreAsync(OutboxStorage storage, ParseResult result, string command, BurstId? burst, CancellationToken ct) =>
        storage.HoldAsync(LeaseHolder.Now(command, burst), TimeSpan.FromSeconds(result.GetValue(CommonOptions.LeaseSeconds)), ct);

    /// <summary>Whether the user named a store: --storage-account-url, --storage or Storage__ConnectionString.</summary>
    public static bool StorageGiven(ParseResult result) =>
        result.GetValue(CommonOptions.StorageAccountUrl) is not null
        || result.GetValue(CommonOptions.StorageConnectionString) is not null
        || Environment.GetEnvironmentVariable(StorageVariable) is { Length: > 0 };

    /// <summary>Where storage is: --storage-account-url, else --storage, else Storage__ConnectionString, else Azurite.</summary>
    /// <exception cref="ArgumentException">The options name no valid store; the message names the option or variable as given.</exception>
    public static StorageOptions StorageOptionsOf(ParseResult result)
    {
        var accountUrl = result.GetValue(CommonOptions.StorageAccountUrl);
        var options = new StorageOptions
        {
            AccountUrl = accountUrl is null ? null : AbsoluteUri(CommonOptions.StorageAccountUrl, accountUrl),
            ConnectionString = accountUrl is null
                ? result.GetValue(CommonOptions.StorageConnectionString)
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
        var given = accountUrl is not null ? CommonOptions.StorageAccountUrl.Name
            : result.GetValue(CommonOptions.StorageConnectionString) is not null ? CommonOptions.StorageConnectionString.Name
            : StorageVariable;
        var why = string.Join(" ", invalid.Select(r => r.ErrorMessage))
            .Replace($"{StorageOptions.Section}:{nameof(StorageOptions.ConnectionString)}", given, StringComparison.Ordinal)
            .Replace($"{StorageOptions.Section}:{nameof(StorageOptions.AccountUrl)}", given, StringComparison.Ordinal);
        throw new ArgumentException(why);
    }

    private const string StorageVariable = "Storage__ConnectionString";

    /// <summary>An HTTP client for the sidecar, carrying DAPR_API_TOKEN when it is set.</summary>
    public static HttpClient SidecarClient(ParseResult result)
    {
        var http = new HttpClient { BaseAddress = AbsoluteUri(CommonOptions.Sidecar, result.GetValue(CommonOptions.Sidecar)), Timeout = TimeSpan.FromSeconds(60) };
        if (Environment.GetEnvironmentVariable(SidecarMetadata.ApiTokenVariable) is { Length: > 0 } token)
        {
            http.DefaultRequestHeaders.Add("dapr-api-token", token);
        }

        return http;
    }

    /// <summary>Asks the sidecar what it runs: it must answer, and locally its app must run <c>--model</c>.</summary>
    /// <exception cref="LoadToolException">The sidecar is not reachable, or runs another model.</exception>
    public static async Task CheckSidecarAsync(IAnsiConsole console, HttpClient sidecar, MessagingModel model, ScheduleTarget target, CancellationToken ct)
    {
        var metadata = await SidecarMetadata.ReadAsync(sidecar, ct);
        if (metadata is null)
        {
            console.MarkupLineInterpolated($"[yellow]The sidecar at {sidecar.BaseAddress} offers no metadata API: the model was not checked.[/]");
        }
        else if (target == ScheduleTarget.Local)
        {
            // In Azure the sidecar is the load tool's own (scripts/azure-burst.sh): it subscribes to nothing.
            metadata.EnsureModel(model, sidecar.BaseAddress!);
        }
    }

    public static Uri AbsoluteUri(Option option, string? value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? uri
            : throw new ArgumentException($"{option.Name} must be an absolute http(s) URL, not '{value}'.");

    /// <summary>Empties the outboxes, with a progress line, and says how long it took.</summary>
    public static async Task ClearAsync(IAnsiConsole console, OutboxStorage storage, CancellationToken ct)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await WithProgressAsync(console, "Clearing the outboxes", null, async (_, status) =>
        {
            await storage.ClearAsync(status, ct);
            return true;
        });
        console.MarkupLineInterpolated($"Cleared {string.Join(", ", storage.Outboxes)} in {clock.Elapsed.TotalSeconds:0.00} s.");
    }

    /// <summary>Prints each line it is told as a line of its own, at once (a storage outage's beginning and end).</summary>
    public static IProgress<string> Lines(IAnsiConsole console) => new LinePrinter(console);

    public static async Task<T> WithProgressAsync<T>(
        IAnsiConsole console, string description, int? total, Func<IProgress<int>, IProgress<string?>, Task<T>> work) =>
        await console.Progress().AutoClear(false).StartAsync(async context =>
        {
            var task = context.AddTask(description, maxValue: total ?? 1);
            task.IsIndeterminate = total is null;
            var status = new Progress<string?>(text => task.Description = text is null ? description : $"{description}: {Markup.Escape(text)}");
            var result = await work(new Progress<int>(done => task.Value = done), status);
            task.Description = description;
            task.Value = task.MaxValue;
            return result;
        });

    private sealed class LinePrinter(IAnsiConsole console) : IProgress<string>
    {
        public void Report(string value) => console.MarkupLineInterpolated($"[yellow]{value}[/]");
    }
}
