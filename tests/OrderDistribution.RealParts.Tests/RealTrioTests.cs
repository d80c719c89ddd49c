using System.Net;
using System.Net.Sockets;
using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The fixture runs what a user's <c>scripts/run-local.sh</c> runs: its run file, sidecar by sidecar, app by app.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class RealTrioTests
{
    [Theory]
    [InlineData(MessagingModel.PubSubBulk, "components-pubsub")]
    [InlineData(MessagingModel.PubSubSingle, "components-pubsub")]
    [InlineData(MessagingModel.Bindings, "components-bindings")]
    public async Task Each_app_of_the_run_file_gets_a_daprd_with_its_id_components_and_pubsub_single_concurrency(
        MessagingModel model, string folder)
    {
        var runFile = DaprRunFile.LoadFullPath(await RunFiles.RenderAsync(model));

        var launches = runFile.Apps.Select(app =>
            SidecarLaunch.Of(app, 5100, f => $"/rendered/{Path.GetFileName(f)}", null)).ToList();

        Assert.Equal(Contract.AppIds, launches.Select(l => l.AppId));
        Assert.All(launches, launch =>
        {
            Assert.Equal([$"/rendered/{folder}"], launch.ResourcesFolders);
            Assert.Equal($"/rendered/{folder}/config.yaml", launch.ConfigFile);
            Assert.Equal(model == MessagingModel.PubSubSingle ? 64 : null, launch.AppMaxConcurrency);
            var arguments = string.Join(' ',
                DaprdArguments.For(launch, "127.0.0.1", "127.0.0.1", new SidecarPorts(1, 2, 3, 4),
                launch.ResourcesFolders, launch.ConfigFile));
            Assert.Contains($"--app-id {launch.AppId} --app-port 5100 --app-protocol http ", arguments,
                StringComparison.Ordinal);
            Assert.Contains($"--resources-path /rendered/{folder}", arguments, StringComparison.Ordinal);
            Assert.Equal(model == MessagingModel.PubSubSingle,
                arguments.Contains("--app-max-concurrency 64", StringComparison.Ordinal));
        });
    }

    [Fact]
    public async Task A_receiver_of_the_run_file_runs_in_the_test_process_on_its_own_port_stops_and_answers_on_restart()
    {
        var ct = TestContext.Current.CancellationToken;
        var entry = DaprRunFile.LoadFullPath(await RunFiles.RenderAsync(MessagingModel.PubSubBulk))
            .AppOf(Contract.ReceiverExpress);
        var settings = entry.Env.Where(e => e.Key != "ASPNETCORE_URLS").ToDictionary();
        settings["DAPR_HTTP_ENDPOINT"] = $"http://127.0.0.1:{Azurite.FreePort()}";
        settings["DAPR_GRPC_ENDPOINT"] = $"http://127.0.0.1:{Azurite.FreePort()}";
        using var http = new HttpClient();

        await using var app = await InProcessApp.StartAsync(entry.Id, entry.DirPath, Azurite.FreePort(), settings);
        Assert.Equal(HttpStatusCode.OK,
            (await http.GetAsync(new Uri(app.Address, Contract.LivenessPath), ct)).StatusCode);

        await app.StopAsync();
        using (var client = new TcpClient())
        {
            await Assert.ThrowsAsync<SocketException>(() =>
                client.ConnectAsync(IPAddress.Loopback, app.Port, ct).AsTask());
        }

        await app.StartAsync();
        Assert.Equal(HttpStatusCode.OK,
            (await http.GetAsync(new Uri(app.Address, Contract.LivenessPath), ct)).StatusCode);
    }

    [Fact]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task A_daprd_exiting_at_start_fails_the_trios_start_with_what_it_printed_and_leaves_no_part_running()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null,
            "redis-server is not installed (apt-get install redis-server).");
        Assert.SkipUnless(Azurite.IsInstalled, "Azurite is not installed (scripts/install-tools.sh).");
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the test reads the processes it started from /proc.");
        var folder = Directory.CreateTempSubdirectory("failing-daprd-").FullName;
        try
        {
            // Not a sidecar: a program in daprd's place that fails as a daprd with a wrong setting would.
            var failing = Path.Combine(folder, "daprd");
            await File.WriteAllTextAsync(failing,
                "#!/bin/sh\necho \"fatal: no runtime in this test's daprd\"\nexit 3\n",
                TestContext.Current.CancellationToken);
            File.SetUnixFileMode(failing, UnixFileMode.UserRead | UnixFileMode.UserExecute);
            var backend = new LocalProcessBackend(new DaprRuntime(DaprRuntime.PinnedVersion, failing, failing));

            var failure = await Assert.ThrowsAsync<InvalidOperationException>(() =>
                RealTrio.StartAsync(backend, MessagingModel.PubSubBulk, null, TestContext.Current.CancellationToken));

            Assert.Contains("exited with code 3", failure.Message, StringComparison.Ordinal);
            Assert.Contains("fatal: no runtime in this test's daprd", failure.Message, StringComparison.Ordinal);
            Assert.Empty(ChildProcesses());
            // What the trio wrote as it stopped, for the output of a test that fails.
            var logs = Assert.Single(TrioLogs.Of(TestContext.Current.Test!.UniqueID));
            Assert.Contains("fatal: no runtime in this test's daprd",
                await File.ReadAllTextAsync(Path.Combine(logs.Folder, "daprd-distributor.log"),
                TestContext.Current.CancellationToken), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// The processes this test process started that still run (its own threads and the test host aside).
    /// </summary>
    private static List<string> ChildProcesses()
    {
        var self = Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var children = new List<string>();
        foreach (var stat in Directory.EnumerateDirectories("/proc").Select(d => Path.Combine(d, "stat")))
        {
            try
            {
                // pid (name) state ppid ...: the name may hold spaces, so read after its closing parenthesis.
                var text = File.ReadAllText(stat);
                var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
                if (fields[1] == self && fields[0] != "Z")
                {
                    children.Add(text[..(text.LastIndexOf(')') + 1)]);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // A process that ended while being read.
            }
        }

        return children;
    }
}
