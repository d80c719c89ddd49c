namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The Dapr runtime the sidecars run, a setting of the fixture so that the same tests run on 1.14 and the newest:
/// <c>DAPR_RUNTIME_VERSION</c> picks the image tag on Docker, <c>DAPRD_PATH</c> the binary for local processes
/// (else daprd on PATH, else the one <c>dapr init --slim</c> installs in ~/.dapr/bin).
/// </summary>
public sealed record DaprRuntime(string Version, string? LocalBinary, string LocalBinarySearched)
{
    /// <summary>The oldest runtime the project supports (its measured facts are from 1.14).</summary>
    public const string PinnedVersion = "1.14.4";

    public string Image => $"daprio/daprd:{Version}";

    /// <param name="variable">Reads an environment variable; the process's own by default.</param>
    public static DaprRuntime FromEnvironment(Func<string, string?>? variable = null)
    {
        variable ??= Environment.GetEnvironmentVariable;
        var version = variable("DAPR_RUNTIME_VERSION") is { Length: > 0 } v ? v : PinnedVersion;
        if (variable("DAPRD_PATH") is { Length: > 0 } path)
        {
            return new DaprRuntime(version, File.Exists(path) ? path : null, $"DAPRD_PATH ({path})");
        }

        var installed = Path.Combine(
            variable("DAPR_INSTALL_DIR")
            ?? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".dapr"),
            "bin", "daprd");
        return new DaprRuntime(
            version, ProgramPath.Find("daprd") ?? (File.Exists(installed) ? installed : null), $"PATH and {installed}");
    }
}
