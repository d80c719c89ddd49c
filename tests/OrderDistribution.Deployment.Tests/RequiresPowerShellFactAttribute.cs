using System.Runtime.CompilerServices;

namespace OrderDistribution.Deployment.Tests;

/// <summary>A fact that runs PowerShell; skipped, with the reason, where the pinned one is not restored.</summary>
public sealed class RequiresPowerShellFactAttribute : FactAttribute
{
    public RequiresPowerShellFactAttribute([CallerFilePath] string? sourceFilePath = null,
        [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (PowerShell.MissingReason is { } reason)
        {
            Skip = reason;
        }
    }
}
