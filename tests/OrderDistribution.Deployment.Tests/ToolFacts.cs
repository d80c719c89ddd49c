using System.Runtime.CompilerServices;
namespace OrderDistribution.Deployment.Tests;

/// <summary>A fact that needs a program on PATH; skipped, with the reason, where it is missing.</summary>
public sealed class RequiresProgramFactAttribute : FactAttribute
{
    public RequiresProgramFactAttribute(string program, string install, [CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (Repo.FindOnPath(program) is null)
        {
            Skip = $"{program} is not on PATH ({install})";
        }
    }
}

/// <summary>A theory that needs a program on PATH; skipped, with the reason, where it is missing.</summary>
public sealed class RequiresProgramTheoryAttribute : TheoryAttribute
{
    public RequiresProgramTheoryAttribute(string program, string install, [CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (Repo.FindOnPath(program) is null)
        {
            Skip = $"{program} is not on PATH ({install})";
        }
    }
}

/// <summary>A fact that needs node and @kusto/language-service-next in ./.tools.</summary>
public sealed class RequiresKqlCheckerFactAttribute : FactAttribute
{
    public const string PackageJson = ".tools/node_modules/@kusto/language-service-next/package.json";

    public RequiresKqlCheckerFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (Repo.FindOnPath("node") is null)
        {
            Skip = "node is not on PATH (install Node.js 20+), so the KQL files cannot be parsed";
        }
        else if (!Repo.Exists(PackageJson))
        {
            Skip = "the Kusto language service is not installed: run scripts/install-tools.sh";
        }
    }
}

/// <summary>A fact about Unix file modes; skipped on Windows.</summary>
public sealed class UnixFactAttribute : FactAttribute
{
    public UnixFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (OperatingSystem.IsWindows())
        {
            Skip = "file modes exist on Unix only";
        }
    }
}
