namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// A started daprd, reached from the test process at its HTTP and gRPC endpoints; disposing stops it.
/// </summary>
/// <param name="readLog">What daprd has printed so far, for the message of a start that failed.</param>
/// <param name="exit">How daprd ended (e.g. its exit code); null while it runs.</param>
public sealed class RunningSidecar(
    Uri httpEndpoint, Uri grpcEndpoint, Func<Task<string>> readLog, Func<Task<string?>> exit,
        Func<ValueTask> stop) : IAsyncDisposable
{
    public Uri HttpEndpoint { get; } = httpEndpoint;

    public Uri GrpcEndpoint { get; } = grpcEndpoint;

    /// <summary>Everything daprd printed so far.</summary>
    public Task<string> LogAsync() => readLog();

    /// <summary>The last lines daprd printed.</summary>
    public async Task<string> LogTailAsync(int lines = 15) =>
        string.Join('\n', (await readLog()).Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(lines));

    /// <summary>How daprd ended; null while it runs.</summary>
    public Task<string?> ExitAsync() => exit();

    public ValueTask DisposeAsync() => stop();
}
