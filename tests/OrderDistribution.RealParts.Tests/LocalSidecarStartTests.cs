using System.Net;
using System.Net.Sockets;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// A local daprd's start, with a program in daprd's place that listens on the HTTP port it is given, as daprd does, and
/// exits as daprd does when that port is taken.
/// </summary>
[Trait("Category", "RealParts")]
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class LocalSidecarStartTests
{
    private const string ListeningDaprd = """
        #!/bin/sh
        exec node -e '
          const args = process.argv.slice(1);
          const port = Number(args[args.indexOf("--dapr-http-port") + 1]);
          require("net").createServer()
            .on("error", e => {
              console.log(`level=fatal msg="Fatal error from runtime: ${e.message}"`); process.exit(1);
            })
            .listen(port, "127.0.0.1", () => console.log(`level=info msg="HTTP server is running on port ${port}"`));
        ' -- "$@"
        """;

    [Fact]
    public async Task A_daprd_that_finds_its_port_taken_is_started_again_on_new_ports_and_its_first_output_is_kept()
    {
        Assert.SkipWhen(ProgramPath.Find("node") is null,
            "node is not installed (the fake daprd of this test runs on it).");
        var ct = TestContext.Current.CancellationToken;
        var folder = Directory.CreateTempSubdirectory("listening-daprd-").FullName;
        using var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        var takenPort = ((IPEndPoint)taken.LocalEndpoint).Port;
        var given = new List<SidecarPorts>();
        try
        {
            var daprd = await WriteListeningDaprdAsync(folder, ct);
            var backend = new LocalProcessBackend(new DaprRuntime(DaprRuntime.PinnedVersion, daprd, daprd), () =>
            {
                // The first start gets a port another process holds; the next get free ones.
                var ports = given.Count == 0 ? SidecarPorts.Free() with { Http = takenPort } : SidecarPorts.Free();
                given.Add(ports);
                return ports;
            });
            await using (backend)
            {
                var sidecar = await backend.StartSidecarAsync(Launch(), ct);

                Assert.Equal(2, given.Count);
                Assert.Equal(given[1].Http, sidecar.HttpEndpoint.Port);
                Assert.Null(await sidecar.ExitAsync());
                var log = await sidecar.LogAsync();
                Assert.Contains("address already in use", log, StringComparison.Ordinal);
            }

            using var client = new TcpClient();
            await Assert.ThrowsAsync<SocketException>(() =>
                client.ConnectAsync(IPAddress.Loopback, given[1].Http, ct).AsTask());
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task A_daprd_finding_its_port_taken_on_every_start_is_given_up_after_the_last_try_with_its_output()
    {
        Assert.SkipWhen(ProgramPath.Find("node") is null,
            "node is not installed (the fake daprd of this test runs on it).");
        var ct = TestContext.Current.CancellationToken;
        var folder = Directory.CreateTempSubdirectory("listening-daprd-").FullName;
        using var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        var takenPort = ((IPEndPoint)taken.LocalEndpoint).Port;
        var starts = 0;
        try
        {
            var daprd = await WriteListeningDaprdAsync(folder, ct);
            await using var backend = new LocalProcessBackend(new DaprRuntime(DaprRuntime.PinnedVersion, daprd, daprd),
                () =>
            {
                starts++;
                return SidecarPorts.Free() with { Http = takenPort };
            });

            var sidecar = await backend.StartSidecarAsync(Launch(), ct);

            Assert.Equal(LocalProcessBackend.BindAttempts, starts);
            Assert.Equal("exited with code 1", await sidecar.ExitAsync());
            var log = await sidecar.LogAsync();
            Assert.Equal(LocalProcessBackend.BindAttempts,
                log.Split('\n').Count(l => l.Contains("address already in use", StringComparison.Ordinal)));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static SidecarLaunch Launch() =>
        new("distributor", Azurite.FreePort(), "http", [],
            Path.Combine(RepositoryRoot.Path, "components-pubsub", "config.yaml"), null, null);

    /// <summary>The fake daprd, as an executable in <paramref name="folder"/>.</summary>
    private static async Task<string> WriteListeningDaprdAsync(string folder, CancellationToken ct)
    {
        var daprd = Path.Combine(folder, "daprd");
        await File.WriteAllTextAsync(daprd, ListeningDaprd.Replace("\r", "", StringComparison.Ordinal) + "\n", ct);
        File.SetUnixFileMode(daprd, UnixFileMode.UserRead | UnixFileMode.UserExecute);
        return daprd;
    }
}
