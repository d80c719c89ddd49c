using System.Text.RegularExpressions;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The GitHub Actions workflows: valid for GitHub (action-validator, GitHub's workflow schema, offline), the real-parts
/// one on each pinned Dapr runtime, and the azd one as <c>azd pipeline config</c> expects it.
/// </summary>
public sealed partial class WorkflowTests
{
    private const string Validator = ".tools/node_modules/.bin/action-validator";

    private static readonly string[] AzdPipelineVariables = ["AZURE_CLIENT_ID", "AZURE_TENANT_ID",
        "AZURE_SUBSCRIPTION_ID", "AZURE_ENV_NAME", "AZURE_LOCATION"];

    public static TheoryData<string> Workflows() =>
        [.. Directory.EnumerateFiles(Repo.PathOf(".github/workflows"), "*.yml")
            .Select(f => $".github/workflows/{Path.GetFileName(f)}").Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(Workflows))]
    public void Each_workflow_is_valid_for_github_by_action_validator(string workflow)
    {
        SkipUnlessValidatorInstalled();

        var (exitCode, output) = Repo.Run(Repo.PathOf(Validator), workflow);

        Assert.True(exitCode == 0, $"action-validator {workflow}:\n{output}");
    }

    [Fact]
    public void Action_validator_refuses_a_workflow_github_would_refuse()
    {
        SkipUnlessValidatorInstalled();
        var folder = Directory.CreateTempSubdirectory("workflow-").FullName;
        try
        {
            var broken = Path.Combine(folder, "broken.yml");
            File.WriteAllText(broken,
                Repo.Read(".github/workflows/real-parts.yml")
                .Replace("runs-on:", "runs_on:", StringComparison.Ordinal));

            var (exitCode, output) = Repo.Run(Repo.PathOf(Validator), broken);

            Assert.NotEqual(0, exitCode);
            Assert.Contains("runs_on", output, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void The_real_parts_workflow_runs_ci_on_daprd_1_14_1_16_and_a_newer_one_from_dapr_init_slim_locally()
    {
        var workflow = Yaml.LoadMapping(Repo.Read(".github/workflows/real-parts.yml"));
        var job = Assert.IsType<YamlMappingNode>(Assert.Single(workflow.Mapping("jobs")!.Children).Value);

        var runtimes = job.Mapping("strategy")!.Mapping("matrix")!.Strings("runtime").Select(Version.Parse).ToList();
        Assert.Contains(runtimes, v => v is { Major: 1, Minor: 14 });
        Assert.Contains(runtimes, v => v is { Major: 1, Minor: 16 });
        Assert.Contains(runtimes, v => v > new Version(1, 17));
        Assert.Equal("local", job.Mapping("env")!.Scalar("REAL_PARTS"));
        Assert.Equal("${{ matrix.runtime }}", job.Mapping("env")!.Scalar("DAPR_RUNTIME_VERSION"));
        var runs = string.Join('\n',
            job.Sequence("steps").OfType<YamlMappingNode>().Select(s => s.Scalar("run") ?? ""));
        Assert.Contains("dapr/cli/master/install/install.sh", runs, StringComparison.Ordinal);
        Assert.Contains("dapr init --slim --runtime-version \"${{ matrix.runtime }}\"", runs, StringComparison.Ordinal);
        Assert.Contains("DAPRD_PATH=$HOME/.dapr/bin/daprd", runs, StringComparison.Ordinal);
        Assert.Contains("bash .ci/run", runs, StringComparison.Ordinal);
    }

    [Fact]
    public void The_azd_workflow_signs_in_with_the_federated_credentials_of_azd_pipeline_config_then_deploys()
    {
        var workflow = Yaml.LoadMapping(Repo.Read(".github/workflows/azure-dev.yml"));
        var job = Assert.IsType<YamlMappingNode>(Assert.Single(workflow.Mapping("jobs")!.Children).Value);

        Assert.Equal("write", workflow.Mapping("permissions")!.Scalar("id-token"));
        Assert.Equal(AzdPipelineVariables.ToDictionary(v => v, v => $"${{{{ vars.{v} }}}}"),
            job.Mapping("env").ScalarMap());
        var runs = job.Sequence("steps").OfType<YamlMappingNode>().Select(s => s.Scalar("run") ?? "").ToList();
        var login = Assert.Single(runs, r => r.StartsWith("azd auth login", StringComparison.Ordinal));
        Assert.Contains("--federated-credential-provider \"github\"", login, StringComparison.Ordinal);
        Assert.DoesNotContain(runs, r => r.Contains("client-secret", StringComparison.Ordinal));
        Assert.True(runs.IndexOf("azd provision --no-prompt") < runs.IndexOf("azd deploy --no-prompt")
            && runs.Contains("azd provision --no-prompt"),
            "the workflow provisions, then deploys");
        // The postprovision hook calls az: the Azure CLI signs in too.
        Assert.Contains(job.Sequence("steps").OfType<YamlMappingNode>(),
            s => s.Scalar("uses")?.StartsWith("azure/login@", StringComparison.Ordinal) == true);
        Assert.Contains("az ", Repo.Read("scripts/postprovision.sh"), StringComparison.Ordinal);
    }

    [Fact]
    public void The_azd_workflow_reads_the_deployed_queues_as_the_load_tool_does_after_the_deploy()
    {
        var workflow = Yaml.LoadMapping(Repo.Read(".github/workflows/azure-dev.yml"));
        var job = Assert.IsType<YamlMappingNode>(Assert.Single(workflow.Mapping("jobs")!.Children).Value);
        var runs = job.Sequence("steps").OfType<YamlMappingNode>().Select(s => s.Scalar("run") ?? "").ToList();
        var read = Assert.Single(runs, r => r.Contains("ServiceBusQueueDepthsTests", StringComparison.Ordinal));
        var filter = Regex.Match(read, "--filter \"FullyQualifiedName~ServiceBusQueueDepthsTests\\.(\\w+)\"");
        var variable = Regex.Match(read, "export (\\w+)=\"/subscriptions/\\$AZURE_SUBSCRIPTION_ID/resourceGroups/" +
            "\\$AZURE_RESOURCE_GROUP/providers/Microsoft.ServiceBus/namespaces/\\$SERVICEBUS_NAMESPACE\"");

        Assert.True(runs.IndexOf(read) > runs.IndexOf("azd deploy --no-prompt"),
            "the queues are read after the deploy");
        Assert.True(filter.Success && variable.Success, read);
        // The test the filter picks is the one that reads the variable the step sets.
        var test = Repo.Read("tests/OrderDistribution.LoadTool.Tests/Queues/ServiceBusQueueDepthsTests.cs");
        Assert.Contains($"public async Task {filter.Groups[1].Value}", test, StringComparison.Ordinal);
        Assert.Contains($"\"{variable.Groups[1].Value}\"", test, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Workflows))]
    public void Each_action_is_pinned_by_commit_with_its_release_tag_beside_it(string workflow)
    {
        // A tag can be moved to other code; a commit cannot. The tag stays in a comment for people and for updaters.
        var uses = Repo.Read(workflow).Split('\n').Where(l => l.TrimStart(' ', '-').StartsWith("uses:",
            StringComparison.Ordinal)).ToList();

        Assert.NotEmpty(uses);
        Assert.All(uses, line => Assert.Matches(PinnedActionRegex(), line));
    }

    [GeneratedRegex(@"uses: [\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$")]
    private static partial Regex PinnedActionRegex();

    private static void SkipUnlessValidatorInstalled()
    {
        Assert.SkipWhen(Repo.FindOnPath("node") is null,
            "node is not on PATH (install Node.js 20+): action-validator runs on it");
        Assert.SkipUnless(Repo.Exists(Validator),
            "action-validator (@action-validator/cli) is not installed: run scripts/install-tools.sh");
    }
}
