using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace OrderDistribution.RealParts.Tests;

/// <summary>Whether a daprd process itself listens on its port, not another process that holds it.</summary>
internal static class DaprdListening
{
    /// <summary>
    /// Whether daprd itself listens on <paramref name="port"/> before it exits or <see
    /// cref="LocalProcessBackend.BindTimeout"/> passes: on Linux, a listening socket on that port among its open files
    /// (another process holding the port answers a connect too); elsewhere, anything that answers on the port while
    /// daprd runs.
    /// </summary>
    public static async Task<bool> ListensAsync(RunningSidecar sidecar, Process process, int port,
        CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + LocalProcessBackend.BindTimeout;
        while (DateTime.UtcNow < deadline && await sidecar.ExitAsync() is null)
        {
            if (OperatingSystem.IsLinux() ? OwnsListeningSocket(process.Id, port) : await AnswersAsync(port, ct))
            {
                return true;
            }

            await Task.Delay(100, ct);
        }

        return false;
    }

    private static readonly string[] SocketTables = ["/proc/net/tcp", "/proc/net/tcp6"];

    /// <summary>
    /// Whether process <paramref name="pid"/> has a socket listening on TCP <paramref name="port"/> (/proc/net/tcp,
    /// tcp6).
    /// </summary>
    internal static bool OwnsListeningSocket(int pid, int port)
    {
        const string Listen = "0A";
        var inodes = new HashSet<string>(StringComparer.Ordinal);
        foreach (var table in SocketTables.Where(File.Exists))
        {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
            foreach (var fields in File.ReadLines(table).Skip(1)
                .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries)))
            {
                if (fields.Length > 9 && fields[3] == Listen
                    && int.Parse(fields[1][(fields[1].LastIndexOf(':') + 1)..],
                        System.Globalization.NumberStyles.HexNumber,
                        System.Globalization.CultureInfo.InvariantCulture) == port)
                {
                    inodes.Add($"socket:[{fields[9]}]");
                }
            }
        }

        try
        {
            return inodes.Count > 0
                && new DirectoryInfo($"/proc/{pid}/fd").EnumerateFiles()
                .Any(fd => fd.LinkTarget is { } target && inodes.Contains(target));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false; // it ended while being read
        }
    }

    private static async Task<bool> AnswersAsync(int port, CancellationToken ct)
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync(IPAddress.Loopback, port, ct);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
