namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// PowerShell as the repository pins it (.config/dotnet-tools.json; .ci/run restores it), run through the dotnet
/// host from the repository root, as azd runs a hook's Windows form with pwsh.
/// </summary>
internal static class PowerShell
{
    private static readonly Lazy<string?> Missing = new(FindMissing);

    /// <summary>Why PowerShell cannot run here, or null when it can.</summary>
    public static string? MissingReason => Missing.Value;

    /// <summary>
    /// <c>env [ENVIRONMENT] dotnet tool run pwsh -- -NoProfile ARGUMENTS</c>: ENVIRONMENT as NAME=VALUE pairs.
    /// </summary>
    public static (int ExitCode, string Output) Run(string[] environment, params string[] arguments) =>
        Repo.Run("env", TimeSpan.FromSeconds(180),
            [.. environment, Dotnet, "tool", "run", "pwsh", "--", "-NoProfile", .. arguments]);

    /// <summary>The dotnet host that runs these tests: the tool runs on it whatever PATH a test gives pwsh.</summary>
    public static string Dotnet =>
        Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host
        : Repo.FindOnPath("dotnet") ?? throw new InvalidOperationException("no dotnet host");

    private static string? FindMissing()
    {
        var (exitCode, output) = Run([], "-Command", "exit 0");
        return exitCode == 0
            ? null
            : "PowerShell is not restored from .config/dotnet-tools.json (dotnet tool restore; .ci/run does it): "
                + output.Trim();
    }
}
