namespace OrderDistribution.LoadTool;

/// <summary>
/// A failure the tool foresaw: one line saying what failed, one saying what to do. Printed without a stack trace.
/// </summary>
public sealed class LoadToolException(string what, string whatToDo, int exitCode, Exception? inner = null)
    : Exception(what, inner)
{
    public string WhatToDo { get; } = whatToDo;

    public int ExitCode { get; } = exitCode;
}
