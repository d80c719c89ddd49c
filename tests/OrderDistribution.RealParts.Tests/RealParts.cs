using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// Which back-end the real-parts tests run on: the setting <c>REAL_PARTS</c> (<c>docker</c>, <c>local</c> or
/// <c>off</c>), by default whichever this machine has, Docker first.
/// </summary>
public static class RealParts
{
    /// <summary>The environment variable that picks the back-end.</summary>
    public const string Setting = "REAL_PARTS";

    /// <summary>
    /// The file beside the test assembly that holds the line of the last choice, which .ci/run prints.
    /// </summary>
    public const string LineFile = "real-parts.txt";

    private static readonly Lazy<Task<string?>> DockerMissing = new(ContainerBackend.DockerMissingAsync);

    /// <summary>
    /// A new back-end for one test of <paramref name="model"/> (it owns what it starts; null: a test of both models),
    /// or a skip with the one line saying what is missing.
    /// </summary>
    /// <exception cref="ArgumentException"><c>REAL_PARTS</c> is set to something else than docker, local or
    /// off.</exception>
    public static async Task<IRealPartsBackend> RequireAsync(MessagingModel? model = null)
    {
        var runtime = DaprRuntime.FromEnvironment();
        var choice = await ChooseAsync(runtime, model);
        Assert.SkipWhen(choice.Kind == RealPartsKind.None, choice.Line);
        return choice.Kind == RealPartsKind.Containers ? new ContainerBackend(runtime) : new LocalProcessBackend(
            runtime);
    }

    /// <summary>
    /// The line <c>.ci/run</c> prints: the back-end the tests run on, or why they are skipped; one for each model when
    /// they differ (a model's broker may be missing). Also written to <see cref="LineFile"/> beside the test assembly.
    /// </summary>
    public static async Task<string> LineAsync()
    {
        var runtime = DaprRuntime.FromEnvironment();
        var pubsub = (await ChooseAsync(runtime, MessagingModel.PubSubBulk)).Line;
        var bindings = (await ChooseAsync(runtime, MessagingModel.Bindings)).Line;
        var line = pubsub == bindings ? pubsub : $"pub/sub: {pubsub} bindings: {bindings}";
        await File.WriteAllTextAsync(Path.Combine(AppContext.BaseDirectory, LineFile), line + "\n");
        return line;
    }

    /// <param name="setting">The value of <c>REAL_PARTS</c>; null or empty: whichever back-end is there.</param>
    /// <param name="dockerMissing">Why no Docker engine answered; null when one did.</param>
    /// <param name="localMissing">What local processes lack (<see cref="LocalProcessBackend.MissingParts(DaprRuntime,
    /// MessagingModel?)"/>).</param>
    /// <exception cref="ArgumentException"><paramref name="setting"/> is not docker, local or off.</exception>
    public static RealPartsChoice Choose(string? setting, string? dockerMissing, DaprRuntime runtime,
        IReadOnlyList<string> localMissing)
    {
        RealPartsChoice Docker() =>
            new(RealPartsKind.Containers, $"Real parts: {new ContainerBackend(runtime).Description}.");
        RealPartsChoice Local() =>
            new(RealPartsKind.LocalProcesses, $"Real parts: {new LocalProcessBackend(runtime).Description}.");
        var localLacks = $"local processes lack {string.Join(", ", localMissing)}";
        return setting?.Trim().ToLowerInvariant() switch
        {
            null or "" => dockerMissing is null ? Docker()
                : localMissing.Count == 0 ? Local()
                : Skipped($"{dockerMissing}, and {localLacks}"),
            "docker" => dockerMissing is null ? Docker() : Skipped($"{Setting}=docker, and {dockerMissing}"),
            "local" => localMissing.Count == 0 ? Local() : Skipped($"{Setting}=local, and {localLacks}"),
            "off" => Skipped($"{Setting}=off"),
            _ => throw new ArgumentException(
                $"{Setting}={setting} is not one of docker, local or off (unset: whichever this machine has).",
                nameof(setting)),
        };
    }

    private static RealPartsChoice Skipped(string why) => new(RealPartsKind.None, $"Real parts skipped: {why}.");

    private static async Task<RealPartsChoice> ChooseAsync(DaprRuntime runtime, MessagingModel? model)
    {
        var setting = Environment.GetEnvironmentVariable(Setting);
        // Docker is asked only when the setting may take it: a machine without it waits up to 5 s for the answer.
        var dockerMissing = setting?.Trim()
            .ToLowerInvariant() is "local" or "off" ? "not asked" : await DockerMissing.Value;
        return Choose(setting, dockerMissing, runtime, LocalProcessBackend.MissingParts(runtime, model));
    }
}
