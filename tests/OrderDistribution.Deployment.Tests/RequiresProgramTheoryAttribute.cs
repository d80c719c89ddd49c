using System.Runtime.CompilerServices;
namespace OrderDistribution.Deployment.Tests;

/// <summary>A theory that needs a program on PATH; skipped, with the reason, where it is missing.</summary>
public sealed class RequiresProgramTheoryAttribute : TheoryAttribute
{
    public RequiresProgramTheoryAttribute(string program, string install,
        [CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (Repo.FindOnPath(program) is null)
        {
            Skip = $"{program} is not on PATH ({install})";
        }
    }
}
