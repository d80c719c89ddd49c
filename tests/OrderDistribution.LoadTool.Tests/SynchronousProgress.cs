namespace OrderDistribution.LoadTool.Tests;

/// <summary>Reports on the caller's thread, so a test reads every report as soon as the call returns.</summary>
internal sealed class SynchronousProgress<T>(Action<T> report) : IProgress<T>
{
    public void Report(T value) => report(value);
}
