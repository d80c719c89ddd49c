using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// .devcontainer/devcontainer.json as the Dev Containers CLI reads it (comments and all): a machine with every part.
/// </summary>
public sealed class DevContainerTests
{
    private const string Cli = ".tools/node_modules/.bin/devcontainer";

    [Fact]
    public void The_dev_container_read_by_the_dev_containers_cli_has_dotnet_10_node_the_dapr_cli_azd_and_az()
    {
        Assert.SkipWhen(Repo.FindOnPath("node") is null,
            "node is not on PATH (install Node.js 20+): the Dev Containers CLI runs on it");
        Assert.SkipUnless(Repo.Exists(Cli),
            "the Dev Containers CLI (@devcontainers/cli) is not installed: run scripts/install-tools.sh");
        // read-configuration first asks Docker for a running container of this folder; `true` answers "none", here and
        // on a machine without Docker alike. Reading the file needs nothing else.
        var noContainers = Repo.FindOnPath("true") ?? "/bin/true";

        var (exitCode, output) = Repo.Run(Repo.PathOf(Cli), "read-configuration", "--workspace-folder", Repo.Root,
            "--docker-path", noContainers);

        Assert.True(exitCode == 0, $"devcontainer read-configuration:\n{output}");
        using var read = JsonDocument.Parse(
            output[output.IndexOf('{', StringComparison.Ordinal)..(output.LastIndexOf('}') + 1)]);
        var configuration = read.RootElement.GetProperty("configuration");
        Assert.StartsWith("mcr.microsoft.com/devcontainers/", configuration.GetProperty("image").GetString(),
            StringComparison.Ordinal);
        var features = configuration.GetProperty("features").EnumerateObject()
            .ToDictionary(f => f.Name[..f.Name.LastIndexOf(':')], f => f.Value);
        Assert.Equal("10.0", features["ghcr.io/devcontainers/features/dotnet"].GetProperty("version").GetString());
        Assert.Contains("ghcr.io/devcontainers/features/node", features.Keys);
        Assert.Contains("ghcr.io/dapr/cli/dapr-cli", features.Keys);
        Assert.Contains("ghcr.io/azure/azure-dev/azd", features.Keys);
        Assert.Contains("ghcr.io/devcontainers/features/azure-cli", features.Keys);
        var setup = configuration.GetProperty("postCreateCommand").GetString();
        Assert.Contains("dapr init --slim", setup, StringComparison.Ordinal);
        Assert.Contains("scripts/install-tools.sh", setup, StringComparison.Ordinal);
        Assert.Contains("redis-server rabbitmq-server", setup, StringComparison.Ordinal);
    }
}
