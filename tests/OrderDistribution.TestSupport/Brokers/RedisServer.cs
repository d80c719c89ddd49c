using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;

namespace OrderDistribution.TestSupport.Brokers;

/// <summary>
/// A real redis-server for a test: 127.0.0.1, a free port, its data (and <c>redis.log</c>) in a temp folder of its
/// own. <see cref="Kill"/> is a kill -9; <see cref="RestartAsync"/> starts it again on the same port and data
/// folder, so it finds there whatever it persisted. Disposing kills it and deletes the folder.
/// </summary>
public sealed class RedisServer : IAsyncDisposable
{
    /// <summary>The program started, looked up on PATH.</summary>
    public const string Program = "redis-server";

    private readonly BrokerProcess _process;

    private RedisServer(int port, string dataFolder, IReadOnlyList<string> settings)
    {
        Port = port;
        DataFolder = dataFolder;
        _process = new BrokerProcess(
            Program,
            () => StartInfo(port, dataFolder, settings),
            port,
            Path.Combine(dataFolder, "redis.log"),
            TimeSpan.FromSeconds(30),
            AnswersPingAsync);
    }

    /// <summary><see cref="Program"/> when it is not on PATH (the test should skip naming it), else null.</summary>
    public static string? MissingProgram => ProgramPath.Find(Program) is null ? Program : null;

    public int Port { get; }

    public string DataFolder { get; }

    /// <summary>host:port, as StackExchange.Redis and Dapr's <c>redisHost</c> take it.</summary>
    public string Endpoint => $"127.0.0.1:{Port.ToString(CultureInfo.InvariantCulture)}";

    /// <param name="settings">redis-server command-line settings after the port, bind address and data folder, e.g.
    /// <c>--appendonly yes --appendfsync everysec</c>. None: Redis's own defaults (no AOF, RDB snapshots).</param>
    public static async Task<RedisServer> StartAsync(IEnumerable<string>? settings = null)
    {
        var folder = Directory.CreateTempSubdirectory("redis-").FullName;
        var server = new RedisServer(BrokerProcess.FreePort(), folder, settings?.ToArray() ?? []);
        return await BrokerProcess.StartOrDisposeAsync(server, server._process);
    }

    /// <summary>kill -9 (SIGKILL): Redis gets no chance to write anything more.</summary>
    public void Kill() => _process.Kill();

    /// <summary>Starts it again (after <see cref="Kill"/>) on the same port and data folder.</summary>
    public Task RestartAsync() => _process.RestartAsync();

    public ValueTask DisposeAsync()
    {
        _process.Dispose();
        Directory.Delete(DataFolder, recursive: true);
        return ValueTask.CompletedTask;
    }

    // Redis listens before it has loaded its data; until then it answers every command -LOADING.
    private static async Task<bool> AnswersPingAsync(NetworkStream connection)
    {
        await connection.WriteAsync("PING\r\n"u8.ToArray());
        var answer = new byte[64];
        var read = await connection.ReadAsync(answer);
        return System.Text.Encoding.ASCII.GetString(answer, 0, read).StartsWith("+PONG", StringComparison.Ordinal);
    }

    private static ProcessStartInfo StartInfo(int port, string dataFolder, IReadOnlyList<string> settings)
    {
        var start = new ProcessStartInfo(Program)
        {
            ArgumentList =
            {
                "--port", port.ToString(CultureInfo.InvariantCulture), "--bind", "127.0.0.1",
                "--dir", dataFolder, "--protected-mode", "no",
            },
        };
        foreach (var setting in settings)
        {
            start.ArgumentList.Add(setting);
        }

        return start;
    }
}
