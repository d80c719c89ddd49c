namespace OrderDistribution.LoadTool;

/// <summary>
/// A failure the tool foresaw: one line saying what failed, one saying what to do (unless the first says it). Printed
/// without a stack trace.
/// </summary>
public sealed class LoadToolException(string what, string? whatToDo, int exitCode, Exception? inner = null)
    : Exception(what, inner)
{
    public string? WhatToDo { get; } = whatToDo;

    public int ExitCode { get; } = exitCode;

    /// <summary>DefaultAzureCredential found no usable sign-in for storage.</summary>
    public static LoadToolException SignInFailed(string? accountUrl, Exception e) => new(
        $"Could not sign in to storage at {accountUrl} with DefaultAzureCredential: " +
        $"{FailureText.FirstLine(e.Message)}.",
        "Run 'az login' (or 'azd auth login'), or pass --storage with a connection string.",
        ExitCodes.BadInput, e);
}
