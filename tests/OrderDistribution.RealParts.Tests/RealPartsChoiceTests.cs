namespace OrderDistribution.RealParts.Tests;

/// <summary>Which back-end the real-parts tests take, and the one line a machine without either gets.</summary>
[Trait("Category", "RealParts")]
public sealed class RealPartsChoiceTests
{
    private const string NoDocker = "no Docker engine answered (Cannot connect to the Docker daemon)";

    private static readonly DaprRuntime WithoutDaprd = new(DaprRuntime.PinnedVersion, null, "DAPRD_PATH (/nowhere/daprd)");

    private static readonly DaprRuntime WithDaprd = new(DaprRuntime.PinnedVersion, "/opt/dapr/daprd", "PATH");

    [Fact]
    public void Without_docker_or_daprd_the_tests_skip_with_one_line_naming_daprd_and_how_to_get_it()
    {
        var choice = RealParts.Choose(NoDocker, WithoutDaprd, LocalProcessBackend.MissingParts(WithoutDaprd));

        Assert.Equal(RealPartsKind.None, choice.Kind);
        Assert.DoesNotContain('\n', choice.Line);
        Assert.StartsWith("Real parts skipped: " + NoDocker, choice.Line, StringComparison.Ordinal);
        Assert.Contains("daprd (looked in DAPRD_PATH (/nowhere/daprd)", choice.Line, StringComparison.Ordinal);
        Assert.Contains("`dapr init --slim`", choice.Line, StringComparison.Ordinal);
        Assert.Contains("daprd release binary", choice.Line, StringComparison.Ordinal);
    }

    [Fact]
    public void A_docker_engine_that_answers_runs_them_on_containers_of_the_set_runtime_version()
    {
        var choice = RealParts.Choose(null, WithoutDaprd with { Version = "1.16.2" }, ["daprd"]);

        Assert.Equal(RealPartsKind.Containers, choice.Kind);
        Assert.Equal("Real parts: Testcontainers on Docker (daprd image daprio/daprd:1.16.2).", choice.Line);
    }

    [Fact]
    public void Without_docker_but_with_daprd_and_the_brokers_they_run_as_local_processes_naming_the_daprd()
    {
        var choice = RealParts.Choose(NoDocker, WithDaprd, []);

        Assert.Equal(RealPartsKind.LocalProcesses, choice.Kind);
        Assert.Equal("Real parts: local processes (daprd /opt/dapr/daprd).", choice.Line);
    }

    [Fact]
    public void The_daprd_version_and_binary_are_settings_of_the_environment()
    {
        var binary = Path.Combine(AppContext.BaseDirectory, "OrderDistribution.RealParts.Tests.dll");
        var environment = new Dictionary<string, string> { ["DAPR_RUNTIME_VERSION"] = "1.16.2", ["DAPRD_PATH"] = binary };

        Assert.Equal(new DaprRuntime("1.16.2", binary, $"DAPRD_PATH ({binary})"), DaprRuntime.FromEnvironment(environment.GetValueOrDefault));
        Assert.Equal(DaprRuntime.PinnedVersion, DaprRuntime.FromEnvironment(_ => null).Version);
        Assert.Null(DaprRuntime.FromEnvironment(name => name == "DAPRD_PATH" ? "/nowhere/daprd" : null).LocalBinary);
    }

    /// <summary>.ci/run prints this test's line: the back-end this machine runs the real-parts tests on, or why none.</summary>
    [Fact]
    public async Task This_machine_runs_the_real_parts_tests_on_the_back_end_its_line_names()
    {
        var line = await RealParts.LineAsync();
        TestContext.Current.TestOutputHelper?.WriteLine(line);
        var runtime = DaprRuntime.FromEnvironment();
        var dockerMissing = await ContainerBackend.DockerMissingAsync();

        Assert.Equal(RealParts.Choose(dockerMissing, runtime, LocalProcessBackend.MissingParts(runtime)).Line, line);
        Assert.SkipWhen(line.StartsWith("Real parts skipped", StringComparison.Ordinal), line);
    }
}
