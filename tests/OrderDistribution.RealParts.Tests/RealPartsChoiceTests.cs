using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// Which back-end the real-parts tests take (the setting REAL_PARTS, else whichever is there), and the line that says
/// so.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class RealPartsChoiceTests
{
    private const string NoDocker = "no Docker engine answered (Cannot connect to the Docker daemon)";

    private static readonly DaprRuntime WithoutDaprd = new(DaprRuntime.PinnedVersion, null,
        "DAPRD_PATH (/nowhere/daprd)");

    private static readonly DaprRuntime WithDaprd = new(DaprRuntime.PinnedVersion, "/nowhere/dapr/daprd", "PATH");

    private static readonly Func<string, bool> NothingInstalled = _ => false;

    [Fact]
    public void Without_docker_or_daprd_the_tests_skip_with_one_line_naming_every_missing_program_and_how_to_get_it()
    {
        var choice = RealParts.Choose(null, NoDocker, WithoutDaprd,
            LocalProcessBackend.MissingParts(WithoutDaprd, null, NothingInstalled));

        Assert.Equal(RealPartsKind.None, choice.Kind);
        Assert.DoesNotContain('\n', choice.Line);
        Assert.StartsWith("Real parts skipped: " + NoDocker, choice.Line, StringComparison.Ordinal);
        Assert.Contains("daprd (looked in DAPRD_PATH (/nowhere/daprd): run `dapr init --slim`", choice.Line,
            StringComparison.Ordinal);
        Assert.Contains("node (Azurite runs on it", choice.Line, StringComparison.Ordinal);
        Assert.Contains("Azurite (scripts/install-tools.sh)", choice.Line, StringComparison.Ordinal);
        Assert.Contains("redis-server (pub/sub model: apt-get install redis-server)", choice.Line,
            StringComparison.Ordinal);
        Assert.Contains("rabbitmq-server (bindings model: apt-get install rabbitmq-server)", choice.Line,
            StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(MessagingModel.PubSubBulk, "redis-server", "rabbitmq-server")]
    [InlineData(MessagingModel.Bindings, "rabbitmq-server", "redis-server")]
    public void Each_models_tests_need_only_its_own_broker(MessagingModel model, string needed, string notNeeded)
    {
        var missing = LocalProcessBackend.MissingParts(WithDaprd, model,
            program => program != needed && program != notNeeded);

        Assert.Single(missing);
        Assert.StartsWith(needed + " ", missing[0], StringComparison.Ordinal);
        Assert.Empty(LocalProcessBackend.MissingParts(WithDaprd, model, program => program != notNeeded));
    }

    [Fact]
    public void Unset_a_docker_engine_that_answers_is_taken_first_on_containers_of_the_set_runtime_version()
    {
        var choice = RealParts.Choose(null, null, WithDaprd with { Version = "1.16.4" }, []);

        Assert.Equal(RealPartsKind.Containers, choice.Kind);
        Assert.Equal("Real parts: Testcontainers on Docker (daprd image daprio/daprd:1.16.4).", choice.Line);
    }

    [Fact]
    public void Unset_without_docker_but_with_every_local_part_they_run_as_local_processes_naming_the_daprd()
    {
        var choice = RealParts.Choose("", NoDocker, WithDaprd, []);

        Assert.Equal(RealPartsKind.LocalProcesses, choice.Kind);
        Assert.StartsWith("Real parts: local processes (daprd ", choice.Line, StringComparison.Ordinal);
        Assert.Contains(" at /nowhere/dapr/daprd)", choice.Line, StringComparison.Ordinal);
    }

    [Fact]
    public void Set_to_local_they_run_as_local_processes_though_docker_answers()
    {
        Assert.Equal(RealPartsKind.LocalProcesses, RealParts.Choose("local", null, WithDaprd, []).Kind);
        Assert.Equal(RealPartsKind.LocalProcesses, RealParts.Choose(" Local ", null, WithDaprd, []).Kind);
    }

    [Fact]
    public void Set_to_a_back_end_this_machine_lacks_they_skip_naming_the_setting_and_what_is_missing_only()
    {
        var docker = RealParts.Choose("docker", NoDocker, WithDaprd, []);
        var local = RealParts.Choose("local", null, WithoutDaprd,
            LocalProcessBackend.MissingParts(WithoutDaprd, MessagingModel.PubSubBulk, _ => true));

        Assert.Equal(RealPartsKind.None, docker.Kind);
        Assert.Equal($"Real parts skipped: REAL_PARTS=docker, and {NoDocker}.", docker.Line);
        Assert.Equal(RealPartsKind.None, local.Kind);
        Assert.StartsWith("Real parts skipped: REAL_PARTS=local, and local processes lack daprd (looked in", local.Line,
            StringComparison.Ordinal);
    }

    [Fact]
    public void Set_to_off_they_skip_whatever_this_machine_has()
    {
        var choice = RealParts.Choose("off", null, WithDaprd, []);

        Assert.Equal(new RealPartsChoice(RealPartsKind.None, "Real parts skipped: REAL_PARTS=off."), choice);
    }

    [Fact]
    public void Set_to_anything_else_it_fails_naming_the_values_it_takes()
    {
        var failure = Assert.Throws<ArgumentException>(() => RealParts.Choose("containers", null, WithDaprd, []));

        Assert.StartsWith("REAL_PARTS=containers is not one of docker, local or off", failure.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public void The_daprd_version_and_binary_are_settings_of_the_environment()
    {
        var binary = Path.Combine(AppContext.BaseDirectory, "OrderDistribution.RealParts.Tests.dll");
        var environment = new Dictionary<string,
            string>
        { ["DAPR_RUNTIME_VERSION"] = "1.16.2", ["DAPRD_PATH"] = binary };

        Assert.Equal(new DaprRuntime("1.16.2", binary, $"DAPRD_PATH ({binary})"),
            DaprRuntime.FromEnvironment(environment.GetValueOrDefault));
        Assert.Equal(DaprRuntime.PinnedVersion, DaprRuntime.FromEnvironment(_ => null).Version);
        Assert.Null(DaprRuntime.FromEnvironment(name => name == "DAPRD_PATH" ? "/nowhere/daprd" : null).LocalBinary);
    }

    /// <summary>
    /// .ci/run prints the line this test writes beside the assembly: the back-end this machine runs the tests on, or
    /// why none.
    /// </summary>
    [Fact]
    public async Task This_machines_line_is_written_for_ci_and_without_docker_or_daprd_says_they_skip_naming_daprd()
    {
        var line = await RealParts.LineAsync();
        TestContext.Current.TestOutputHelper?.WriteLine(line);
        var runtime = DaprRuntime.FromEnvironment();
        var setting = Environment.GetEnvironmentVariable(RealParts.Setting);

        Assert.Equal(line + "\n",
            await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, RealParts.LineFile),
            TestContext.Current.CancellationToken));
        if (runtime.LocalBinary is null && string.IsNullOrEmpty(setting)
            && await ContainerBackend.DockerMissingAsync() is not null)
        {
            Assert.StartsWith("Real parts skipped: ", line, StringComparison.Ordinal);
            Assert.Contains($"daprd (looked in {runtime.LocalBinarySearched}", line, StringComparison.Ordinal);
        }

        Assert.False(runtime.LocalBinary is null && line.Contains("local processes (daprd", StringComparison.Ordinal),
            line);
    }
}
