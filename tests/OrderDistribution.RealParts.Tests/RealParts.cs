namespace OrderDistribution.RealParts.Tests;

/// <summary>Which back-end this machine offers the real-parts tests: Docker first, else local processes, else none.</summary>
public static class RealParts
{
    private static readonly Lazy<Task<RealPartsChoice>> Choice = new(ChooseAsync);

    /// <summary>A new back-end for one test (it owns what it starts), or a skip with the one line saying what is missing.</summary>
    public static async Task<IRealPartsBackend> RequireAsync()
    {
        var choice = await Choice.Value;
        Assert.SkipWhen(choice.Kind == RealPartsKind.None, choice.Line);
        var runtime = DaprRuntime.FromEnvironment();
        return choice.Kind == RealPartsKind.Containers ? new ContainerBackend(runtime) : new LocalProcessBackend(runtime);
    }

    /// <summary>The line <c>.ci/run</c> prints: the back-end the tests run on, or why they are skipped.</summary>
    public static async Task<string> LineAsync() => (await Choice.Value).Line;

    public static RealPartsChoice Choose(string? dockerMissing, DaprRuntime runtime, IReadOnlyList<string> localMissing) =>
        dockerMissing is null
            ? new RealPartsChoice(RealPartsKind.Containers, $"Real parts: {new ContainerBackend(runtime).Description}.")
            : localMissing.Count == 0
                ? new RealPartsChoice(RealPartsKind.LocalProcesses, $"Real parts: {new LocalProcessBackend(runtime).Description}.")
                : new RealPartsChoice(RealPartsKind.None,
                    $"Real parts skipped: {dockerMissing}, and for local processes this machine lacks {string.Join(", ", localMissing)}.");

    private static async Task<RealPartsChoice> ChooseAsync()
    {
        var runtime = DaprRuntime.FromEnvironment();
        return Choose(await ContainerBackend.DockerMissingAsync(), runtime, LocalProcessBackend.MissingParts(runtime));
    }
}
