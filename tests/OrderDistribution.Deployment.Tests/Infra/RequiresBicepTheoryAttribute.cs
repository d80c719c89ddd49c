using System.Runtime.CompilerServices;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// A theory that needs the Bicep compiler; skipped, with the reason, where there is none for this platform.
/// </summary>
public sealed class RequiresBicepTheoryAttribute : TheoryAttribute
{
    public RequiresBicepTheoryAttribute([CallerFilePath] string? sourceFilePath = null,
        [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (BicepCompiler.Path is null)
        {
            Skip = BicepCompiler.MissingReason;
        }
    }
}
