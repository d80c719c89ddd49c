namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// The last result of each probe. Readiness reads it, so a health request never waits on a dependency.
/// </summary>
public sealed class ReadinessState
{
    private volatile IReadOnlyDictionary<string, string?> _failures =
        new Dictionary<string, string?> { ["startup"] = "not checked yet" };

    public bool IsReady => _failures.Count == 0;

    public string Describe() => IsReady ? "ready" : string.Join("; ", _failures.Select(f => $"{f.Key}: {f.Value}"));

    internal void Set(IReadOnlyDictionary<string, string?> failures) => _failures = failures;
}
